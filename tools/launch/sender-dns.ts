/**
 * The sender domain's DNS, as Gmail and Yahoo require of bulk senders since February 2024: SPF,
 * DKIM (at `<selector>._domainkey.<domain>`) and a DMARC record aligned with the From domain
 * (RFC 7489: DKIM's d= or SPF's Return-Path domain equal to the From domain under `adkim`/`aspf`
 * s, or sharing its organisational domain under r, the default). Read with node:dns through a
 * resolver whose server can be set (the tests run a local DNS server, tools/test/dns-server.ts).
 *
 * The organisational domain is the last two labels: right for example.com, wrong for a
 * registry's second level such as example.co.uk, where the check may call a relaxed alignment
 * misaligned; say the domains explicitly there (--dkim-domain, --return-path).
 */
import { Resolver } from 'node:dns/promises'

export type SenderCheck = { name: string; outcome: 'ok' | 'fault' | 'skipped'; detail: string; fix?: string }

export type SenderSettings = {
  /** EMAIL_FROM: the address (or "Name <address>") mail is sent from. */
  from: string
  /** The DKIM selector the provider gave (resend, pm, a SES token…); none skips the DKIM check. */
  selector?: string
  /** The domain the provider signs DKIM with (d=); the From domain unless the provider says otherwise. */
  dkimDomain?: string
  /** The bounce (Return-Path, MAIL FROM) domain SPF is checked on; the From domain unless set. */
  returnPath?: string
  /** DNS servers to ask ("127.0.0.1:5353"); the system's when empty. */
  servers?: string[]
  timeoutMs?: number
}

export const fromDomain = (from: string): string | null => {
  const address = /<([^>]+)>/.exec(from)?.[1] ?? from
  const at = address.trim().lastIndexOf('@')
  return at > 0
    ? address
        .trim()
        .slice(at + 1)
        .toLowerCase()
        .replace(/\.$/, '')
    : null
}

export const organisational = (domain: string) => domain.split('.').slice(-2).join('.')

export function aligned(domain: string, with_: string, mode: 's' | 'r'): boolean {
  return mode === 's' ? domain === with_ : organisational(domain) === organisational(with_)
}

/** DMARC's tags (v=DMARC1; p=…; adkim=…; aspf=…). */
export function dmarcTags(record: string): Record<string, string> {
  const tags: Record<string, string> = {}
  for (const part of record.split(';')) {
    const eq = part.indexOf('=')
    if (eq > 0) tags[part.slice(0, eq).trim().toLowerCase()] = part.slice(eq + 1).trim()
  }
  return tags
}

async function txt(resolver: Resolver, name: string): Promise<string[]> {
  try {
    return (await resolver.resolveTxt(name)).map((chunks) => chunks.join(''))
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code
    if (code === 'ENOTFOUND' || code === 'ENODATA') return []
    throw new Error(`DNS lookup of ${name} failed (${code ?? String(error)})`)
  }
}

export async function checkSenderDomain(settings: SenderSettings): Promise<SenderCheck[]> {
  const domain = fromDomain(settings.from)
  if (!domain)
    return [{ name: 'EMAIL_FROM', outcome: 'fault', detail: `"${settings.from}" has no domain`, fix: 'set EMAIL_FROM to the address mail is sent from' }]
  const resolver = new Resolver({ timeout: settings.timeoutMs ?? 3000, tries: 2 })
  if (settings.servers?.length) resolver.setServers(settings.servers)
  const results: SenderCheck[] = []
  const bounceDomain = (settings.returnPath ?? domain).toLowerCase()
  const dkimDomain = (settings.dkimDomain ?? domain).toLowerCase()

  // SPF, on the domain receivers check it on: the Return-Path's.
  const spf = (await txt(resolver, bounceDomain)).filter((record) => /^v=spf1(\s|$)/i.test(record))
  let spfOk = false
  if (spf.length === 0)
    results.push({
      name: 'SPF',
      outcome: 'fault',
      detail: `no SPF record (TXT "v=spf1 …") at ${bounceDomain}`,
      fix: `add the TXT record your e-mail provider gives for ${bounceDomain}, e.g. "v=spf1 include:<provider> -all"`,
    })
  else if (spf.length > 1)
    results.push({
      name: 'SPF',
      outcome: 'fault',
      detail: `${spf.length} SPF records at ${bounceDomain}: receivers treat that as an error`,
      fix: 'merge them into one TXT record',
    })
  else if (/(^|\s)\+?all(\s|$)/i.test(spf[0] as string))
    results.push({ name: 'SPF', outcome: 'fault', detail: `SPF at ${bounceDomain} allows any server ("+all")`, fix: 'end it with -all or ~all' })
  else {
    spfOk = true
    results.push({ name: 'SPF', outcome: 'ok', detail: `${bounceDomain}: ${spf[0]}` })
  }

  // DKIM, at the selector's name.
  let dkimOk = false
  if (!settings.selector) {
    results.push({
      name: 'DKIM',
      outcome: 'skipped',
      detail: 'no selector given',
      fix: 'pass --selector <the selector your provider gave> (or set DKIM_SELECTOR)',
    })
  } else {
    const name = `${settings.selector}._domainkey.${dkimDomain}`
    const dkim = (await txt(resolver, name)).find((record) => /(^|;)\s*p=[A-Za-z0-9+/=]{16,}/.test(record))
    if (!dkim)
      results.push({
        name: 'DKIM',
        outcome: 'fault',
        detail: `no DKIM key at ${name}`,
        fix: `add the DKIM record (TXT or CNAME) your e-mail provider shows for selector "${settings.selector}" at ${name}`,
      })
    else {
      dkimOk = true
      results.push({ name: 'DKIM', outcome: 'ok', detail: `key found at ${name}` })
    }
  }

  // DMARC: at _dmarc.<From domain>, else at its organisational domain (RFC 7489, 6.6.3).
  let at = `_dmarc.${domain}`
  let dmarc = (await txt(resolver, at)).filter((record) => /^v=DMARC1\s*(;|$)/i.test(record))
  if (dmarc.length === 0 && organisational(domain) !== domain) {
    at = `_dmarc.${organisational(domain)}`
    dmarc = (await txt(resolver, at)).filter((record) => /^v=DMARC1\s*(;|$)/i.test(record))
  }
  if (dmarc.length !== 1) {
    results.push({
      name: 'DMARC',
      outcome: 'fault',
      detail: dmarc.length === 0 ? `no DMARC record at _dmarc.${domain}` : `${dmarc.length} DMARC records at ${at}`,
      fix: `add one TXT record at _dmarc.${domain}: "v=DMARC1; p=none; rua=mailto:dmarc@${domain}" (then p=quarantine once reports are clean)`,
    })
    return results
  }
  const tags = dmarcTags(dmarc[0] as string)
  const adkim = tags.adkim?.toLowerCase() === 's' ? 's' : 'r'
  const aspf = tags.aspf?.toLowerCase() === 's' ? 's' : 'r'
  if (!['none', 'quarantine', 'reject'].includes(tags.p?.toLowerCase() ?? '')) {
    results.push({ name: 'DMARC', outcome: 'fault', detail: `the DMARC record at ${at} has no valid p= policy`, fix: 'set p=none, quarantine or reject' })
    return results
  }
  const dkimAligned = dkimOk && aligned(dkimDomain, domain, adkim)
  const spfAligned = spfOk && aligned(bounceDomain, domain, aspf)
  if (!dkimAligned && !spfAligned) {
    const why = [
      dkimOk ? `DKIM signs as ${dkimDomain}, ${adkim === 's' ? 'not exactly' : 'not within'} ${domain} (adkim=${adkim})` : 'no DKIM key to align',
      spfOk ? `SPF covers ${bounceDomain}, ${aspf === 's' ? 'not exactly' : 'not within'} ${domain} (aspf=${aspf})` : 'no SPF record to align',
    ]
    results.push({
      name: 'DMARC alignment',
      outcome: 'fault',
      detail: `the DMARC policy at ${at} (p=${tags.p}) does not align with the From domain ${domain}: ${why.join('; ')}`,
      fix: `sign DKIM with d=${domain} (the provider's domain setup), or relax the policy to adkim=r if the signing domain shares ${organisational(domain)}`,
    })
  } else {
    results.push({ name: 'DMARC alignment', outcome: 'ok', detail: `p=${tags.p} at ${at}, aligned through ${dkimAligned ? 'DKIM' : 'SPF'}` })
  }
  return results
}

export function formatSenderChecks(results: readonly SenderCheck[]): string {
  const mark = { ok: '✔', fault: '✖', skipped: '–' } as const
  return results.map((result) => `${mark[result.outcome]} ${result.name}: ${result.detail}${result.fix ? `\n    fix: ${result.fix}` : ''}\n`).join('')
}
