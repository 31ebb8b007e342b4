import 'server-only'
import { getSiteLanguages, getSiteSettings, getWaitlistPage } from '@/sanity/content'
import { DEFAULT_LANGUAGE } from '@/lib/i18n/languages'
import { publicEnv, serverEnv } from '@/lib/env'
import { dispatchOutbox, type DispatchReport } from './dispatch'
import { smtpEmailChannel } from './email'
import { slackWebhookChannel } from './slack'
import { webhookChannel } from './webhook'
import { serviceClient } from '@/lib/supabase/service'
import { STORE_TIMEOUT_MS, supabaseOutboxStore } from './store'

export type DispatchSetup = { ok: true; run: () => Promise<DispatchReport> } | { ok: false; missing: string[] }

/**
 * The dispatcher as the deployment configures it: the Supabase project with the service-role
 * key, SMTP_URL and EMAIL_FROM, Slack when SLACK_WAITLIST_WEBHOOK_URL is set, and the founders'
 * webhook when WAITLIST_WEBHOOK_URL is. Without the
 * required settings nothing is claimed, so every message waits in the outbox until they are set.
 */
export function configuredDispatch(): DispatchSetup {
  const server = serverEnv()
  const missing = [
    !publicEnv.supabaseUrl && 'NEXT_PUBLIC_SUPABASE_URL',
    !server.supabaseServiceRoleKey && 'SUPABASE_SERVICE_ROLE_KEY',
    !server.smtpUrl && 'SMTP_URL',
    !server.emailFrom && 'EMAIL_FROM',
  ].filter((name): name is string => typeof name === 'string')
  if (missing.length > 0 || !publicEnv.supabaseUrl || !server.supabaseServiceRoleKey || !server.smtpUrl || !server.emailFrom) return { ok: false, missing }
  const store = supabaseOutboxStore(serviceClient(publicEnv.supabaseUrl, server.supabaseServiceRoleKey, { timeoutMs: STORE_TIMEOUT_MS }))
  const email = smtpEmailChannel(server.smtpUrl, server.emailFrom)
  const slack = server.slackWebhookUrl ? slackWebhookChannel(server.slackWebhookUrl) : null
  // lib/env accepts both or neither.
  const webhook = server.webhookUrl && server.webhookSecret ? webhookChannel({ url: server.webhookUrl, secret: server.webhookSecret }) : null
  return {
    ok: true,
    run: () =>
      dispatchOutbox({
        store,
        email,
        slack,
        slackIncludeEmail: server.slackIncludeEmail,
        webhook,
        copy: async (language) => ((await getWaitlistPage(language)) ?? (await baseWaitlistPage())).email,
        languages: async () => (await getSiteLanguages()).map((language) => language.code),
        appUrl: async () => (await getSiteSettings(DEFAULT_LANGUAGE)).appUrl,
        siteUrl: publicEnv.siteUrl,
      }),
  }
}

/** The base language's waitlist page: always published (its absence fails the fetch). */
async function baseWaitlistPage() {
  const page = await getWaitlistPage(DEFAULT_LANGUAGE)
  if (!page) throw new Error('The waitlist page has no English document')
  return page
}
