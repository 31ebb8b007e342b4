import { execFile, spawn, type ChildProcess } from 'node:child_process'
import { promisify } from 'node:util'
import { expect, test } from '@playwright/test'
import { publishedDocumentTypes, publishWebhookFilter } from '../sanity/webhook-filter'
import { publishWebhook } from '../tools/content/publish-webhook'
import { ownerClient } from '../tools/owner/owner'
import { LOCAL_SERVICE_ROLE_KEY } from '../tools/supabase-local/keys'
import { waitForUrl } from '../tools/local/run'
import { startHooksStandIn, type HooksStandIn } from '../tools/sanity-standin/hooks-standin'
import { E2E, e2eEnv, nextStart } from '../tools/test/e2e-env'
import { startDnsServer, type DnsServer } from '../tools/test/dns-server'

// `npm run launch:check` (tools/launch/launch-check.ts) against this suite's production build: it
// passes on the suite's server, whose settings are complete, its test sign-up carried to its e-mail
// (maildev) and erased (one of the suite's sign-ups, counted in e2e/other-engines.spec.ts); and it names
// each fault it is built to find, each with its fix: a webhook filter without one document type
// (the stand-in for Sanity's Webhooks API holding it), and, on a second server of the same build, a
// missing secret, a dispatcher that answers 401 to the founders' secret, and an address the pages
// do not call their own (NEXT_PUBLIC_SITE_URL is written into them at build, for the suite's port);
// and the sender domain's SPF, DKIM and DMARC (mail:check) against a DNS server in this process,
// passing, then naming a missing DKIM key.

const site = `http://localhost:${E2E.sitePort}`
const broken = `http://localhost:${E2E.launchCheckPort}`
const PROJECT = 'standin'
const TOKEN = 'launch-check-manage-token'
const secrets = { SANITY_REVALIDATE_SECRET: e2eEnv().SANITY_REVALIDATE_SECRET!, OUTBOX_DISPATCH_SECRET: e2eEnv().OUTBOX_DISPATCH_SECRET! }
let api: HooksStandIn
let server: ChildProcess
// The sender domain's records (mail:check), served in this process on a free UDP port.
let dns: DnsServer
const SENDER = 'hello@heardly.example'

// Each run of the command may take up to its own 60 s (the test sign-up waits for its e-mail, then
// the sender domain is looked up): the default 30 s per test cut it short on a busy machine.
test.describe.configure({ mode: 'serial', timeout: 90_000 })

test.beforeAll(async () => {
  api = await startHooksStandIn({ projectId: PROJECT, token: TOKEN })
  dns = await startDnsServer({
    'heardly.example': ['v=spf1 include:amazonses.com -all'],
    'resend._domainkey.heardly.example': ['p=MIGfMA0GCSqGSIb3DQEBAQUAA4GNADCBiQKBgQDwIRP/UC3SBsEmGqZ9ZJW3'],
    '_dmarc.heardly.example': ['v=DMARC1; p=none'],
  })
  const [command, ...args] = nextStart(E2E.launchCheckPort).split(' ')
  server = spawn(command!, args, {
    env: { ...e2eEnv(), SANITY_REVALIDATE_SECRET: '', OUTBOX_DISPATCH_SECRET: 'another-sites-outbox-dispatch-secret' },
    stdio: 'ignore',
  })
  await waitForUrl(`${broken}/about`)
})

test.afterAll(async () => {
  server?.kill('SIGTERM')
  await api?.close()
  await dns?.close()
})

/** The command as the founders run it, with their secrets and the stand-in's address; never throws on exit 1. */
async function launchCheck(address: string, ...options: string[]): Promise<{ code: number; out: string }> {
  const env: NodeJS.ProcessEnv = {
    NODE_ENV: 'production',
    PATH: process.env.PATH,
    HOME: process.env.HOME,
    ...secrets,
    NEXT_PUBLIC_SANITY_PROJECT_ID: PROJECT,
    SANITY_AUTH_TOKEN: TOKEN,
    SANITY_API_HOST: api.url,
    NEXT_PUBLIC_SUPABASE_URL: e2eEnv().NEXT_PUBLIC_SUPABASE_URL,
    NEXT_PUBLIC_SUPABASE_ANON_KEY: e2eEnv().NEXT_PUBLIC_SUPABASE_ANON_KEY,
    SUPABASE_SERVICE_ROLE_KEY: LOCAL_SERVICE_ROLE_KEY,
    EMAIL_FROM: SENDER,
    DKIM_SELECTOR: 'resend',
    MAIL_CHECK_DNS: dns.address,
  }
  try {
    const { stdout } = await promisify(execFile)('tsx', ['tools/launch/launch-check.ts', address, ...options], { env, timeout: 60_000 })
    await test.info().attach(`launch:check ${address}`, { body: stdout })
    return { code: 0, out: stdout }
  } catch (error) {
    const failed = error as { code: number; stdout: string; stderr: string }
    await test.info().attach(`launch:check ${address}`, { body: `${failed.stdout}${failed.stderr}` })
    return { code: failed.code, out: `${failed.stdout}${failed.stderr}` }
  }
}

const faults = (out: string) => [...out.matchAll(/^✖ ([^:]+):/gm)].map((match) => match[1])

test('passes on a correct deployment, its test sign-up e-mailed and erased, and names a webhook filter without one document type', async () => {
  api.hooks.splice(0, api.hooks.length, {
    ...publishWebhook({ siteUrl: site, dataset: 'production', secret: secrets.SANITY_REVALIDATE_SECRET }),
    id: 'publish',
  })
  const email = `launch-check-${Date.now()}@example.com`
  const correct = await launchCheck(site, '--email', email)
  expect(correct.out).toContain(`✔ test sign-up: saved, its confirmation e-mail handed to the mail server (see ${email}'s inbox), erased`)
  const { client } = ownerClient({ NEXT_PUBLIC_SUPABASE_URL: e2eEnv().NEXT_PUBLIC_SUPABASE_URL, SUPABASE_SERVICE_ROLE_KEY: LOCAL_SERVICE_ROLE_KEY })
  expect((await client.from('waitlist').select('id').eq('email', email)).data).toEqual([])
  expect(correct.out).not.toContain('✖')
  expect(correct.out).not.toContain('–')
  expect(correct.out).toContain('Ready: every check passed.')
  expect(correct.code).toBe(0)

  expect(correct.out).toContain('✔ sender domain (SPF, DKIM, DMARC): SPF ✔, DKIM ✔, DMARC alignment ✔')

  const [dropped, ...kept] = publishedDocumentTypes()
  api.hooks[0]!.rule.filter = publishWebhookFilter(kept)
  const stale = await launchCheck(site)
  expect(stale.code).toBe(1)
  expect(faults(stale.out)).toEqual(['Sanity publish webhook'])
  expect(stale.out).toContain(`its filter leaves out ${dropped}`)
  expect(stale.out).toContain(`fix: npm run sanity:webhook -- ${site}`)
})

test('names a missing secret, a dispatcher that answers 401 and a wrong NEXT_PUBLIC_SITE_URL, each with its fix', async () => {
  api.hooks.splice(0, api.hooks.length, {
    ...publishWebhook({ siteUrl: broken, dataset: 'production', secret: secrets.SANITY_REVALIDATE_SECRET }),
    id: 'publish',
  })
  // The sender's DKIM key removed: mail:check's fault, named with the record's full name.
  const key = dns.records['resend._domainkey.heardly.example']!
  delete dns.records['resend._domainkey.heardly.example']
  const { code, out } = await launchCheck(broken)
  dns.records['resend._domainkey.heardly.example'] = key
  expect(code).toBe(1)
  expect(faults(out)).toEqual([
    'environment',
    'publish webhook (/api/revalidate)',
    'dispatcher (/api/outbox/dispatch)',
    'sender domain (SPF, DKIM, DMARC)',
    'NEXT_PUBLIC_SITE_URL',
  ])
  expect(out).toContain('DKIM: no DKIM key at resend._domainkey.heardly.example')
  expect(out).toContain('the site is missing SANITY_REVALIDATE_SECRET')
  expect(out).toContain('the dispatcher answers 401 to your OUTBOX_DISPATCH_SECRET')
  expect(out).toContain(`the site calls itself ${site} (canonical links, sitemap, e-mail links) but was checked at ${broken}`)
  expect(out).toContain(`fix: set NEXT_PUBLIC_SITE_URL=${broken} in the host’s settings and rebuild`)
  expect(out).toContain('✔ security headers and Vary')
  expect(out).toContain('✔ Sanity publish webhook')
})
