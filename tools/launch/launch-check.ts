/**
 * `npm run launch:check -- https://<your site>`: before and after going live, proves the
 * deployment's wiring from the outside (tools/launch/checks.ts) and prints a fix for each fault;
 * exits 1 when any check finds one. Reads the secrets it checks with from the environment or
 * .env.local, the same values as the host's settings: SANITY_REVALIDATE_SECRET,
 * OUTBOX_DISPATCH_SECRET, for the Sanity webhook NEXT_PUBLIC_SANITY_PROJECT_ID and
 * SANITY_AUTH_TOKEN, and for the test sign-up to `--email` NEXT_PUBLIC_SUPABASE_URL,
 * NEXT_PUBLIC_SUPABASE_ANON_KEY and SUPABASE_SERVICE_ROLE_KEY (docs/founders.md, "Before launch").
 */
import nextEnv from '@next/env'
import { parseArgs } from 'node:util'
import { formatResults, runLaunchChecks } from './checks'

nextEnv.loadEnvConfig(process.cwd(), false)

const { positionals, values } = parseArgs({ allowPositionals: true, options: { email: { type: 'string' } } })
const [address, ...rest] = positionals
let site: URL | undefined
try {
  site = address && rest.length === 0 ? new URL(address) : undefined
} catch {
  site = undefined
}
if (!site || !/^https?:$/.test(site.protocol)) {
  console.error('Usage: npm run launch:check -- https://<your site> [--email you+launch@<your domain>]')
  process.exit(2)
}

console.log(`Launch check of ${site.origin}\n`)
const results = await runLaunchChecks({ site, env: process.env, ...(values.email ? { email: values.email } : {}) })
process.stdout.write(formatResults(results))
const faults = results.filter((result) => result.outcome === 'fault').length
console.log(
  faults === 0 ? '\nReady: every check passed.' : `\n${faults} fault${faults === 1 ? '' : 's'} to fix (each with its fix above), then run this again.`,
)
process.exit(faults === 0 ? 0 : 1)
