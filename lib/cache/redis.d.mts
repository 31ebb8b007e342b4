import type { RedisClientType } from 'redis'

export declare const KEY_PREFIX: string
export declare function sharedRedis(url: string): RedisClientType
export declare function readyRedis(url: string, waitMs: number): Promise<RedisClientType>
export declare function within<T>(promise: Promise<T>, ms: number): Promise<T>
export declare const COMMAND_DEADLINE_MS: number
export declare function owe(url: string, key: string, write: () => Promise<unknown>): void
