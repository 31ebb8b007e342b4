/**
 * `npm run mail:check -- [--selector <dkim selector>] [--dkim-domain d] [--return-path d] [--dns host:port]`:
 * the SPF, DKIM and DMARC records of EMAIL_FROM's domain (tools/launch/sender-dns.ts), each fault with
 * its fix; exits 1 on any fault. EMAIL_FROM, DKIM_SELECTOR and MAIL_CHECK_DNS (a DNS server to ask
 * instead of the system's) are read from the environment or .env.local when not given.
 */
import nextEnv from '@next/env'
import { parseArgs } from 'node:util'
import { checkSenderDomain, formatSenderChecks } from './sender-dns'

nextEnv.loadEnvConfig(process.cwd(), false)

const { values } = parseArgs({
  options: {
    from: { type: 'string' },
    selector: { type: 'string' },
    'dkim-domain': { type: 'string' },
    'return-path': { type: 'string' },
    dns: { type: 'string' },
  },
})
const from = values.from ?? process.env.EMAIL_FROM
if (!from) {
  console.error(
    'Set EMAIL_FROM (or pass --from you@your-domain).\nUsage: npm run mail:check -- [--selector s] [--dkim-domain d] [--return-path d] [--dns host:port]',
  )
  process.exit(2)
}
const dns = values.dns ?? process.env.MAIL_CHECK_DNS
const results = await checkSenderDomain({
  from,
  selector: values.selector ?? process.env.DKIM_SELECTOR,
  dkimDomain: values['dkim-domain'],
  returnPath: values['return-path'],
  servers: dns ? [dns] : undefined,
})
process.stdout.write(formatSenderChecks(results))
const faults = results.filter((result) => result.outcome === 'fault').length
console.log(faults === 0 ? '\nThe sender domain is ready.' : `\n${faults} fault${faults === 1 ? '' : 's'} to fix (each with its fix above).`)
process.exit(faults === 0 ? 0 : 1)
