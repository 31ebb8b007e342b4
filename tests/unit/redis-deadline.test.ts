import { spawn } from 'node:child_process'
import { once } from 'node:events'
import { describe, expect, it } from 'vitest'
import { within } from '@/lib/cache/redis.mjs'

// The deadline on Redis calls (lib/cache/redis.mjs): a server busy rendering must not take an
// answer that arrived meanwhile for a hung Redis, which would mark it down for nothing.
describe('within', () => {
  it('counts an answer that arrived while the event loop was held past the deadline', async () => {
    // An answer from outside this process, 50 ms from now, like a reply on Redis's socket.
    const child = spawn('sh', ['-c', 'sleep 0.05; echo answered'], { stdio: ['ignore', 'pipe', 'ignore'] })
    const answer = once(child.stdout, 'data').then(([chunk]) => String(chunk).trim())
    const result = within(answer, 100)
    // A render holding the event loop for 400 ms: the answer and the deadline both fall inside it.
    const until = Date.now() + 400
    while (Date.now() < until) {
      // busy
    }
    await expect(result).resolves.toBe('answered')
  })

  it('still gives up on an answer that never comes', async () => {
    await expect(within(new Promise(() => {}), 50)).rejects.toThrow('Redis did not answer within 50 ms')
  })
})
