import 'server-only'
import { serverEnv } from '@/lib/env'
import { configuredServiceClient } from '@/lib/supabase/configured'
import type { MailEventSettings, RecordMailEvent } from './handle'

/** The providers' settings as the deployment sets them (RESEND_WEBHOOK_SECRET, POSTMARK_WEBHOOK_*, SES_SNS_TOPIC_ARN). */
export function configuredMailEventSettings(): MailEventSettings {
  const env = serverEnv()
  return {
    resendSecret: env.resendWebhookSecret,
    postmark: env.postmarkWebhookUser && env.postmarkWebhookPassword ? { user: env.postmarkWebhookUser, password: env.postmarkWebhookPassword } : undefined,
    sesTopicArn: env.sesSnsTopicArn,
  }
}

/** public.waitlist_mail_event with the service-role key; null when the database is not configured. */
export function configuredMailEventRecorder(): RecordMailEvent | null {
  const client = configuredServiceClient()
  if (!client) return null
  return async (event) => {
    const { data, error, status } = await client.rpc('waitlist_mail_event', {
      provider: event.provider,
      event_id: event.id,
      kind: event.kind,
      address: event.email ?? undefined,
      occurred_at: event.occurredAt ?? undefined,
    })
    if (error) throw new Error(`waitlist_mail_event failed (HTTP ${status}${error.code ? ` ${error.code}` : ''}): ${error.message}`)
    return String(data)
  }
}
