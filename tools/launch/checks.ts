/**
 * What `npm run launch:check -- https://<site>` (tools/launch/launch-check.ts) proves of a deployed
 * site from the outside, each check with the fix for what it finds wrong: the wiring a deployment
 * needs and nothing in the site itself would report (docs/founders.md, "Connect the services").
 * It holds what the founders hold (the secrets, in the environment or .env.local) and asks the site
 * the way Sanity, the cron and pg_net do; the site tells nothing about its settings beyond what its
 * routes already answer (app/api/revalidate/route.ts, app/api/outbox/dispatch/route.ts).
 */
import { encodeSignatureHeader, SIGNATURE_HEADER_NAME } from '@sanity/webhook'
import { commonSecurityHeaders } from '../../lib/security-headers'
import { varyTokens } from '../../lib/http/vary'
import { filterDifference } from '../../sanity/webhook-filter'
import { findPublishWebhook, hooksClient, PUBLISH_WEBHOOK_PATH } from '../content/publish-webhook'
import { createWaitlistClient } from '../../components/waitlist/client'
import { joinWaitlist } from '../../components/waitlist/join'
import { ownerClient } from '../owner/owner'
import { checkSenderDomain } from './sender-dns'

export type CheckResult = { name: string; outcome: 'ok' | 'fault' | 'skipped'; detail: string; fix?: string }

export interface LaunchSettings {
  site: URL
  /** The founders' environment: the same secrets as the host's settings. */
  env: Record<string, string | undefined>
  /** A mailbox of the founders' for the test sign-up (`--email`); without it that check is skipped. */
  email?: string
  /** How long the test sign-up's e-mail may take to leave. */
  mailWithinMs?: number
}

const TIMEOUT_MS = 20_000
const DISPATCH_PATH = '/api/outbox/dispatch'

/** Each check's name as printed, also when it could not run at all. */
export const CHECK_NAMES = {
  environment: 'environment',
  revalidate: 'publish webhook (/api/revalidate)',
  dispatcher: `dispatcher (${DISPATCH_PATH})`,
  siteUrl: 'NEXT_PUBLIC_SITE_URL',
  headers: 'security headers and Vary',
  sanityWebhook: 'Sanity publish webhook',
  signup: 'test sign-up',
  sender: 'sender domain (SPF, DKIM, DMARC)',
} as const

const ok = (name: string, detail: string): CheckResult => ({ name, outcome: 'ok', detail })
const fault = (name: string, detail: string, fix: string): CheckResult => ({ name, outcome: 'fault', detail, fix })
const skipped = (name: string, detail: string, fix?: string): CheckResult => ({ name, outcome: 'skipped', detail, ...(fix ? { fix } : {}) })

async function ask(
  site: URL,
  path: string,
  init: RequestInit = {},
): Promise<{ status: number; body: Record<string, unknown>; headers: Headers; text: string }> {
  const response = await fetch(new URL(path, site), { ...init, redirect: 'manual', signal: AbortSignal.timeout(TIMEOUT_MS) })
  const text = await response.text()
  let body: Record<string, unknown> = {}
  try {
    body = JSON.parse(text) as Record<string, unknown>
  } catch {
    body = {}
  }
  return { status: response.status, body, headers: response.headers, text }
}

const secretOf = (env: LaunchSettings['env'], name: string) => env[name]?.trim() || undefined

/**
 * The settings this check needs, here, and those the site's answers show it lacks: an unsigned
 * webhook call is refused either for want of a signature or for want of the site's secret, and an
 * authorised dispatch that cannot send names what it misses (HTTP 503).
 */
export async function checkEnvironment({ site, env }: LaunchSettings): Promise<CheckResult> {
  const name = CHECK_NAMES.environment
  const here = ['SANITY_REVALIDATE_SECRET', 'OUTBOX_DISPATCH_SECRET'].filter((key) => !secretOf(env, key))
  const there: string[] = []
  const revalidate = await ask(site, PUBLISH_WEBHOOK_PATH, { method: 'POST', body: '{}' })
  if (String(revalidate.body.reason ?? '').includes('no SANITY_REVALIDATE_SECRET')) there.push('SANITY_REVALIDATE_SECRET')
  const outboxSecret = secretOf(env, 'OUTBOX_DISPATCH_SECRET')
  if (outboxSecret) {
    const dispatch = await ask(site, DISPATCH_PATH, { method: 'POST', headers: { authorization: `Bearer ${outboxSecret}` } })
    if (dispatch.status === 503 && Array.isArray(dispatch.body.missing)) there.push(...(dispatch.body.missing as string[]))
  }
  if (here.length === 0 && there.length === 0) return ok(name, 'the site has its secrets, and so does this machine')
  const problems = [
    there.length > 0 && `the site is missing ${there.join(', ')}`,
    here.length > 0 && `this machine has no ${here.join(', ')} to check the site with`,
  ].filter(Boolean)
  const fixes = [
    there.length > 0 && `set ${there.join(', ')} in the host's settings and redeploy (docs/founders.md, "Connect the services")`,
    here.length > 0 && `put the host's values of ${here.join(', ')} in this shell or .env.local`,
  ].filter(Boolean)
  return fault(name, problems.join('; '), fixes.join('; '))
}

/** Sanity's webhook: a call signed with the site's secret is taken, a forged one refused. */
export async function checkRevalidate({ site, env }: LaunchSettings): Promise<CheckResult> {
  const name = CHECK_NAMES.revalidate
  const secret = secretOf(env, 'SANITY_REVALIDATE_SECRET')
  if (!secret)
    return skipped(name, 'no SANITY_REVALIDATE_SECRET here to sign a test call with', 'put the host’s SANITY_REVALIDATE_SECRET in this shell or .env.local')
  // A change to the site's settings: what it refreshes is the chrome every page shows, once.
  const body = JSON.stringify({ _type: 'siteSettings', _id: 'launch-check' })
  const send = async (key: string) =>
    ask(site, PUBLISH_WEBHOOK_PATH, {
      method: 'POST',
      headers: { 'content-type': 'application/json', [SIGNATURE_HEADER_NAME]: await encodeSignatureHeader(body, Date.now(), key) },
      body,
    })
  const signed = await send(secret)
  const forged = await send(`${secret}-forged`)
  if (signed.status !== 200 || signed.body.revalidated !== true) {
    const reason = String(signed.body.reason ?? signed.text.slice(0, 120))
    const fix = reason.includes('no SANITY_REVALIDATE_SECRET')
      ? 'set SANITY_REVALIDATE_SECRET in the host’s settings (the same value as the Sanity webhook’s secret) and redeploy'
      : reason.includes('invalid signature')
        ? 'the site’s SANITY_REVALIDATE_SECRET differs from yours: set one value on the host, here, and in the webhook (npm run sanity:webhook)'
        : 'read the site’s log for [content] or [updates] lines'
    return fault(name, `a signed test call was answered ${signed.status}: ${reason}`, fix)
  }
  if (forged.status !== 401)
    return fault(name, `a forged call was answered ${forged.status}, not 401`, 'deploy this repository’s app/api/revalidate/route.ts unchanged')
  return ok(name, 'a signed test call revalidates, a forged one is refused (401)')
}

/** The dispatcher: refuses a caller without the secret, takes one with it. */
export async function checkDispatcher({ site, env }: LaunchSettings): Promise<CheckResult> {
  const name = CHECK_NAMES.dispatcher
  const secret = secretOf(env, 'OUTBOX_DISPATCH_SECRET')
  if (!secret) return skipped(name, 'no OUTBOX_DISPATCH_SECRET here to call it with', 'put the host’s OUTBOX_DISPATCH_SECRET in this shell or .env.local')
  const anonymous = await ask(site, DISPATCH_PATH, { method: 'POST' })
  const authorised = await ask(site, DISPATCH_PATH, { method: 'POST', headers: { authorization: `Bearer ${secret}` } })
  if (anonymous.status !== 401)
    return fault(
      name,
      `a call without the secret was answered ${anonymous.status}, not 401`,
      'deploy this repository’s app/api/outbox/dispatch/route.ts unchanged',
    )
  if (authorised.status === 401)
    return fault(
      name,
      'the dispatcher answers 401 to your OUTBOX_DISPATCH_SECRET: the site’s is another, or unset',
      'set the same OUTBOX_DISPATCH_SECRET on the host (on Vercel also as CRON_SECRET) and in Supabase Vault as outbox_dispatch_secret, then redeploy',
    )
  if (authorised.status === 503)
    return fault(
      name,
      `reachable and authorised, but not configured: missing ${(authorised.body.missing as string[] | undefined)?.join(', ')}`,
      'set those in the host’s settings and redeploy',
    )
  if (authorised.status !== 200) return fault(name, `an authorised call was answered ${authorised.status}`, 'read the site’s log for [outbox] lines')
  return ok(name, 'reachable and authorised; a call without the secret is refused (401)')
}

/** NEXT_PUBLIC_SITE_URL is written into the pages at build: their canonical address must be the one checked. */
export async function checkSiteUrl({ site }: LaunchSettings): Promise<CheckResult> {
  const name = CHECK_NAMES.siteUrl
  const home = await ask(site, '/')
  const canonical = /<link[^>]+rel="canonical"[^>]*href="([^"]+)"/.exec(home.text)?.[1] ?? /<link[^>]+href="([^"]+)"[^>]*rel="canonical"/.exec(home.text)?.[1]
  if (!canonical)
    return fault(name, `the home page (HTTP ${home.status}) has no canonical link`, 'deploy this repository’s site unchanged and check that / answers 200')
  const written = new URL(canonical, site).origin
  if (written !== site.origin)
    return fault(
      name,
      `the site calls itself ${written} (canonical links, sitemap, e-mail links) but was checked at ${site.origin}`,
      `set NEXT_PUBLIC_SITE_URL=${site.origin} in the host’s settings and rebuild (it is written into the pages at build)`,
    )
  return ok(name, `the pages' canonical address is ${written}`)
}

/** The headers lib/security-headers.ts sets, and `Vary` on a page with a Markdown twin. */
export async function checkHeaders({ site }: LaunchSettings): Promise<CheckResult> {
  const name = CHECK_NAMES.headers
  const home = await ask(site, '/')
  const problems: string[] = []
  for (const { key, value } of commonSecurityHeaders())
    if (home.headers.get(key) !== value) problems.push(`${key} is ${JSON.stringify(home.headers.get(key))}, not ${JSON.stringify(value)}`)
  if (!home.headers.get('content-security-policy')) problems.push('Content-Security-Policy is missing')
  // The home page answers Markdown to an agent asking for it (proxy.ts): a shared cache must tell them apart.
  if (!varyTokens(home.headers.get('vary')).some((token) => token.toLowerCase() === 'accept'))
    problems.push(`Vary (${JSON.stringify(home.headers.get('vary'))}) lacks Accept`)
  if (problems.length > 0)
    return fault(
      name,
      problems.join('; '),
      'a proxy or CDN in front of the site drops or rewrites headers: let it pass the site’s headers (Vary included) unchanged',
    )
  return ok(name, `${commonSecurityHeaders().length + 1} security headers as built; Vary carries Accept`)
}

/** The publish webhook in Sanity: there, pointing at this site, and filtering on every document type of the schema. */
export async function checkSanityWebhook({ site, env }: LaunchSettings): Promise<CheckResult> {
  const name = CHECK_NAMES.sanityWebhook
  const projectId = env.NEXT_PUBLIC_SANITY_PROJECT_ID?.trim()
  const token = env.SANITY_AUTH_TOKEN?.trim()
  const fixCommand = `npm run sanity:webhook -- ${site.origin}`
  if (!projectId || !token)
    return skipped(name, 'no NEXT_PUBLIC_SANITY_PROJECT_ID and SANITY_AUTH_TOKEN here to read it with', `set both, or run ${fixCommand}`)
  const client = hooksClient({ projectId, token, ...(env.SANITY_API_HOST ? { apiHost: env.SANITY_API_HOST } : {}) })
  const url = new URL(PUBLISH_WEBHOOK_PATH, site).toString()
  const hook = await findPublishWebhook(client, projectId, url)
  if (!hook) return fault(name, `project ${projectId} has no webhook to ${url}`, fixCommand)
  const problems: string[] = []
  if (hook.url !== url) problems.push(`it calls ${hook.url}`)
  if (hook.isDisabled || hook.isDisabledByUser) problems.push('it is disabled')
  const { missing, extra } = filterDifference(hook.rule.filter)
  if (missing.length > 0) problems.push(`its filter leaves out ${missing.join(', ')}`)
  if (extra.length > 0) problems.push(`its filter names types the schema has not: ${extra.join(', ')}`)
  if (problems.length > 0) return fault(name, problems.join('; '), fixCommand)
  return ok(name, `calls ${url} for every document type of the schema`)
}

/**
 * A sign-up as the form makes it (the public key, components/waitlist/join.ts), its confirmation
 * e-mail handed to the mail server by the dispatcher, then the entry erased with the service-role
 * key (its messages go with it), whatever happened before.
 */
export async function checkSignup({ site, env, email, mailWithinMs = 30_000 }: LaunchSettings): Promise<CheckResult> {
  const name = CHECK_NAMES.signup
  const url = env.NEXT_PUBLIC_SUPABASE_URL?.trim()
  const anonKey = env.NEXT_PUBLIC_SUPABASE_ANON_KEY?.trim()
  const secret = secretOf(env, 'OUTBOX_DISPATCH_SECRET')
  if (!email)
    return skipped(name, 'no --email given to sign up with', 'add --email you+launch@<your domain> (a mailbox of yours: the confirmation e-mail goes there)')
  if (!url || !anonKey || !env.SUPABASE_SERVICE_ROLE_KEY || !secret)
    return skipped(
      name,
      'needs NEXT_PUBLIC_SUPABASE_URL, NEXT_PUBLIC_SUPABASE_ANON_KEY, SUPABASE_SERVICE_ROLE_KEY and OUTBOX_DISPATCH_SECRET here',
      'put the host’s values in this shell or .env.local',
    )
  const { client: owner } = ownerClient(env)
  const joined = await joinWaitlist(createWaitlistClient(url, anonKey), { name: 'Launch check', email })
  if (joined.status !== 'saved') {
    const fix =
      joined.status === 'duplicate'
        ? `${email} is on the list already: erase it (npm run waitlist:list finds it) or use another address`
        : 'read the site’s and Supabase’s logs'
    return fault(name, `the sign-up was not saved (${joined.status}${'message' in joined ? `: ${joined.message}` : ''})`, fix)
  }
  const entry = await owner.from('waitlist').select('id').ilike('email', email).maybeSingle()
  if (!entry.data)
    return fault(
      name,
      `saved, but the service-role key cannot read it back (${entry.error?.message ?? 'no row'})`,
      'check SUPABASE_SERVICE_ROLE_KEY is the project’s',
    )
  try {
    const deadline = Date.now() + mailWithinMs
    let last: { status: string; last_error: string | null } | null = null
    while (Date.now() < deadline) {
      await ask(site, DISPATCH_PATH, { method: 'POST', headers: { authorization: `Bearer ${secret}` } })
      const message = await owner
        .from('waitlist_outbox')
        .select('status, last_error')
        .eq('entry_id', entry.data.id)
        .eq('kind', 'confirmation_email')
        .maybeSingle()
      last = message.data
      if (last && !['pending', 'sending'].includes(last.status)) break
      await new Promise((resolve) => setTimeout(resolve, 1_000))
    }
    if (last?.status !== 'sent')
      return fault(
        name,
        `its confirmation e-mail is ${last?.status ?? 'not queued'}${last?.last_error ? ` (${last.last_error})` : ''} after ${mailWithinMs / 1000} s`,
        'check SMTP_URL and EMAIL_FROM on the host (docs/founders.md, "E-mail delivery and Slack in a deployment")',
      )
    return ok(name, `saved, its confirmation e-mail handed to the mail server (see ${email}'s inbox), erased`)
  } finally {
    await owner.from('waitlist').delete().eq('id', entry.data.id)
  }
}

/**
 * `npm run mail:check`'s SPF, DKIM and DMARC checks of EMAIL_FROM's domain (tools/launch/sender-dns.ts),
 * as one check: DKIM_SELECTOR names the provider's selector, MAIL_CHECK_DNS another DNS server.
 * Without a selector DKIM cannot be checked, and Gmail and Yahoo require it: that is a fault too.
 */
export async function checkSender({ env }: LaunchSettings): Promise<CheckResult> {
  const name = CHECK_NAMES.sender
  const from = secretOf(env, 'EMAIL_FROM')
  if (!from) return fault(name, 'EMAIL_FROM is not set here', 'set EMAIL_FROM as on the host, and DKIM_SELECTOR to your provider’s DKIM selector')
  const dns = secretOf(env, 'MAIL_CHECK_DNS')
  const results = await checkSenderDomain({ from, selector: secretOf(env, 'DKIM_SELECTOR'), servers: dns ? [dns] : undefined })
  const wrong = results.filter((result) => result.outcome !== 'ok')
  if (wrong.length === 0) return ok(name, results.map((result) => `${result.name} ✔`).join(', '))
  return fault(
    name,
    wrong.map((result) => `${result.name}: ${result.detail}`).join('; '),
    wrong
      .map((result) => result.fix ?? '')
      .filter(Boolean)
      .join('; ') + ' (npm run mail:check for each record; docs/founders.md, "Bounces and complaints")',
  )
}

export type LaunchCheck = { name: string; run: (settings: LaunchSettings) => Promise<CheckResult> }

export const LAUNCH_CHECKS: readonly LaunchCheck[] = [
  { name: CHECK_NAMES.environment, run: checkEnvironment },
  { name: CHECK_NAMES.revalidate, run: checkRevalidate },
  { name: CHECK_NAMES.dispatcher, run: checkDispatcher },
  { name: CHECK_NAMES.signup, run: checkSignup },
  { name: CHECK_NAMES.sender, run: checkSender },
  { name: CHECK_NAMES.siteUrl, run: checkSiteUrl },
  { name: CHECK_NAMES.headers, run: checkHeaders },
  { name: CHECK_NAMES.sanityWebhook, run: checkSanityWebhook },
]

/** Each check in turn; one that throws (the site unreachable) is a fault of its own, not the end of the run. */
export async function runLaunchChecks(settings: LaunchSettings, checks: readonly LaunchCheck[] = LAUNCH_CHECKS): Promise<CheckResult[]> {
  const results: CheckResult[] = []
  for (const check of checks) {
    try {
      results.push(await check.run(settings))
    } catch (error) {
      const reason = error instanceof Error ? `${error.message}${error.cause instanceof Error ? ` (${error.cause.message})` : ''}` : String(error)
      results.push(fault(check.name, `could not run: ${reason}`, `check that ${settings.site.origin} answers from this machine`))
    }
  }
  return results
}

export function formatResults(results: readonly CheckResult[]): string {
  const mark = { ok: '✔', fault: '✖', skipped: '–' } as const
  return results.map((result) => `${mark[result.outcome]} ${result.name}: ${result.detail}${result.fix ? `\n    fix: ${result.fix}` : ''}\n`).join('')
}
