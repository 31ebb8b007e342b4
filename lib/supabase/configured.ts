import 'server-only'
import { publicEnv, serverEnv } from '@/lib/env'
import { SERVICE_TIMEOUT_MS, serviceClient, type ServiceClient } from './service'

/**
 * The database with the service-role key as the deployment configures it (unsubscribing, the
 * app's redemption, a post's e-mail, the experiments' sync, the outbox's store); null when the
 * deployment has not set the key or the URL.
 */
export function configuredServiceClient(): ServiceClient | null {
  const key = serverEnv().supabaseServiceRoleKey
  return publicEnv.supabaseUrl && key ? serviceClient(publicEnv.supabaseUrl, key, { timeoutMs: SERVICE_TIMEOUT_MS }) : null
}
