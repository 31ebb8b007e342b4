/**
 * `npm run mail:check` (tools/launch/sender-dns.ts, tools/launch/mail-check.ts) against a local DNS
 * server (tools/test/dns-server.ts) through node:dns: a domain with SPF, DKIM and an aligned DMARC
 * passes; a missing DKIM record is named with its full name; a strict DMARC policy that the
 * signing domain does not meet is named as not aligned; the command exits 1 on a fault.
 */
import { execFile } from 'node:child_process'
import { promisify } from 'node:util'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { checkSenderDomain } from '@/tools/launch/sender-dns'
import { startDnsServer, type DnsServer } from '@/tools/test/dns-server'

const KEY =
  'MIGfMA0GCSqGSIb3DQEBAQUAA4GNADCBiQKBgQDwIRP/UC3SBsEmGqZ9ZJW3/DkMoGeLnQg1fWn7/zYtIxN2SnFCjxOCKG9v3b4jYfcTNh5ijSsq631uBItLa7od+v/RtdC2UzJ1lWT947qR+Rcac2gbto/NMqJ0fzfVjH4OuKhitdY9tf6mcwGjaNBcWToIMmPSPDdQPNUYckcQ2QIDAQAB'

let dns: DnsServer
beforeAll(async () => {
  dns = await startDnsServer({
    'heardly.example': ['v=spf1 include:amazonses.com -all', 'google-site-verification=abc'],
    'resend._domainkey.heardly.example': [`p=${KEY}`],
    '_dmarc.heardly.example': ['v=DMARC1; p=none; rua=mailto:dmarc@heardly.example'],
    // A subdomain sender: SPF on the bounce domain, DKIM signed as the parent, DMARC strict at the parent.
    'mail.strict.example': ['v=spf1 include:spf.mtasv.net ~all'],
    'bounces.strict.example': ['v=spf1 include:spf.mtasv.net ~all'],
    'pm._domainkey.strict.example': [`k=rsa; p=${KEY}`],
    '_dmarc.strict.example': ['v=DMARC1; p=quarantine; adkim=s; aspf=s'],
    'nodkim.example': ['v=spf1 -all'],
    '_dmarc.nodkim.example': ['v=DMARC1; p=reject'],
  })
})
afterAll(() => dns?.close())

const check = (from: string, more: Partial<Parameters<typeof checkSenderDomain>[0]> = {}) => checkSenderDomain({ from, servers: [dns.address], ...more })

describe('mail:check', () => {
  it('passes a domain with SPF, a DKIM key at the selector and an aligned DMARC policy', async () => {
    const results = await check('Heardly <hello@heardly.example>', { selector: 'resend' })
    expect(results.map((result) => [result.name, result.outcome])).toEqual([
      ['SPF', 'ok'],
      ['DKIM', 'ok'],
      ['DMARC alignment', 'ok'],
    ])
  })

  it('names a missing DKIM record', async () => {
    const results = await check('hello@nodkim.example', { selector: 'resend' })
    expect(results.find((result) => result.name === 'DKIM')).toMatchObject({ outcome: 'fault', detail: 'no DKIM key at resend._domainkey.nodkim.example' })
    // Without DKIM and with SPF's "-all" only, DMARC still aligns through SPF on the same domain.
    expect(results.find((result) => result.name === 'DMARC alignment')?.outcome).toBe('ok')
  })

  it('names a DMARC policy that does not align with the From domain', async () => {
    const results = await check('news@mail.strict.example', { selector: 'pm', dkimDomain: 'strict.example', returnPath: 'bounces.strict.example' })
    expect(results.find((result) => result.name === 'DKIM')?.outcome).toBe('ok')
    const dmarc = results.find((result) => result.name === 'DMARC alignment')!
    expect(dmarc.outcome).toBe('fault')
    expect(dmarc.detail).toContain('does not align with the From domain mail.strict.example')
    expect(dmarc.detail).toContain('adkim=s')
    // Relaxed (the default) would have aligned: the same organisational domain.
    dns.records['_dmarc.strict.example'] = ['v=DMARC1; p=quarantine']
    expect(
      (await check('news@mail.strict.example', { selector: 'pm', dkimDomain: 'strict.example', returnPath: 'bounces.strict.example' })).at(-1)?.outcome,
    ).toBe('ok')
    dns.records['_dmarc.strict.example'] = ['v=DMARC1; p=quarantine; adkim=s; aspf=s']
  })

  it('names a missing SPF and DMARC, and skips DKIM without a selector', async () => {
    const results = await check('hello@nothing.example')
    expect(results.map((result) => [result.name, result.outcome])).toEqual([
      ['SPF', 'fault'],
      ['DKIM', 'skipped'],
      ['DMARC', 'fault'],
    ])
  })

  it('as a command: prints each fault and exits 1', async () => {
    const run = promisify(execFile)
    const failed = await run('npx', ['tsx', 'tools/launch/mail-check.ts', '--selector', 'resend', '--dns', dns.address], {
      env: { ...process.env, EMAIL_FROM: 'hello@nodkim.example' },
    }).catch((error: { code: number; stdout: string }) => error)
    expect('code' in failed && failed.code).toBe(1)
    expect(failed.stdout).toContain('✖ DKIM: no DKIM key at resend._domainkey.nodkim.example')
    const passed = await run('npx', ['tsx', 'tools/launch/mail-check.ts', '--selector', 'resend'], {
      env: { ...process.env, EMAIL_FROM: 'hello@heardly.example', MAIL_CHECK_DNS: dns.address },
    })
    expect(passed.stdout).toContain('The sender domain is ready.')
  }, 60_000)
})
