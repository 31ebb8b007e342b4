/**
 * Deliverability for the founders (supabase/schemas/21_deliverability.sql): the last 7 days'
 * e-mails sent, bounces and complaints with their rates against the thresholds
 * (public.waitlist_mail_health), and the resume after an automatic pause
 * (public.waitlist_mail_resume). Read by the console and by npm run waitlist:mail.
 */
import type { OwnerClient } from './owner'

export type MailHealth = {
  sent: number
  bounced: number
  complained: number
  bounce_rate: number | null
  complaint_rate: number | null
  warn_bounce_rate: number
  warn_complaint_rate: number
  pause_bounce_rate: number
  pause_complaint_rate: number
  pause_min_sent: number
  paused_at: string | null
  paused_reason: string | null
  resumed_at: string | null
  suppressed: number
}

export async function readMailHealth(client: OwnerClient): Promise<MailHealth> {
  const { data, error } = await client.rpc('waitlist_mail_health')
  if (error) throw new Error(`Could not read the e-mail rates: ${error.message}`)
  const health = data as Record<string, unknown>
  // numeric arrives as a JSON number from jsonb; keep nulls (no e-mail sent yet).
  const num = (value: unknown) => (value === null || value === undefined ? null : Number(value))
  return {
    ...(health as unknown as MailHealth),
    bounce_rate: num(health.bounce_rate),
    complaint_rate: num(health.complaint_rate),
    warn_bounce_rate: Number(health.warn_bounce_rate),
    warn_complaint_rate: Number(health.warn_complaint_rate),
    pause_bounce_rate: Number(health.pause_bounce_rate),
    pause_complaint_rate: Number(health.pause_complaint_rate),
  }
}

/** True when sending was paused and now resumes. */
export async function resumeMail(client: OwnerClient): Promise<boolean> {
  const { data, error } = await client.rpc('waitlist_mail_resume')
  if (error) throw new Error(`Could not resume sending: ${error.message}`)
  return data === true
}

export const percent = (rate: number | null) => (rate === null ? '–' : `${(rate * 100).toFixed(2)} %`)

/** The warnings the figures call for, in words (empty when all is well). */
export function mailWarnings(health: MailHealth): string[] {
  const warnings: string[] = []
  if (health.bounce_rate !== null && health.bounce_rate > health.warn_bounce_rate)
    warnings.push(`Bounces are ${percent(health.bounce_rate)} of e-mails sent (warning above ${percent(health.warn_bounce_rate)}).`)
  if (health.complaint_rate !== null && health.complaint_rate > health.warn_complaint_rate)
    warnings.push(`Spam complaints are ${percent(health.complaint_rate)} of e-mails sent (warning above ${percent(health.warn_complaint_rate)}).`)
  return warnings
}

export function formatMailHealth(health: MailHealth): string {
  const lines = [
    `E-mails sent in the last 7 days: ${health.sent}`,
    `Bounces: ${health.bounced} (${percent(health.bounce_rate)}; warning above ${percent(health.warn_bounce_rate)}, pause above ${percent(health.pause_bounce_rate)})`,
    `Complaints: ${health.complained} (${percent(health.complaint_rate)}; warning above ${percent(health.warn_complaint_rate)}, pause above ${percent(health.pause_complaint_rate)})`,
    `Suppressed addresses: ${health.suppressed}`,
    health.paused_at ? `SENDING IS PAUSED since ${health.paused_at}: ${health.paused_reason ?? ''}` : 'Sending: running',
    ...mailWarnings(health).map((warning) => `Warning: ${warning}`),
  ]
  return `${lines.join('\n')}\n`
}
