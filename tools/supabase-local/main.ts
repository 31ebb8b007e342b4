/**
 * Starts the LOCAL POSTGREST DOUBLE (see server.ts) for development:
 *
 *   tsx tools/supabase-local/main.ts [--port 54321] [--host 127.0.0.1] [--data-dir .local/supabase] [--memory] [--quiet]
 *                              [--seed-sql file.sql]
 *
 * --seed-sql runs a file as the superuser after the migrations, on every start. For browser
 * tests and benchmarks that sign up many times from 127.0.0.1 (one client for the waitlist's
 * rate limit): --seed-sql tools/supabase-local/relax-rate-limits.sql
 *
 * Data persists in <repo>/.local/supabase (git-ignored) unless --memory is given.
 * Readiness: GET http://127.0.0.1:54321/health answers 200 once migrations ran.
 */
import { readFile } from 'node:fs/promises'
import { fileURLToPath } from 'node:url'
import { parseArgs } from 'node:util'
import { startLocalSupabase } from './server'

const { values } = parseArgs({
  options: {
    port: { type: 'string', default: process.env.LOCAL_SUPABASE_PORT ?? '54321' },
    host: { type: 'string', default: '127.0.0.1' },
    // Default anchored at the repository root (git-ignored .local/), whatever the working directory.
    'data-dir': { type: 'string', default: fileURLToPath(new URL('../../.local/supabase', import.meta.url)) },
    memory: { type: 'boolean', default: false },
    quiet: { type: 'boolean', default: false },
    'seed-sql': { type: 'string' },
  },
})

const port = Number(values.port)
if (!Number.isInteger(port) || port < 0 || port > 65535) {
  console.error(`Invalid --port: ${values.port}`)
  process.exit(2)
}
const dataDir = values.memory ? undefined : values['data-dir']

let supabase: Awaited<ReturnType<typeof startLocalSupabase>>
try {
  supabase = await startLocalSupabase({
    port,
    host: values.host,
    dataDir,
    log: values.quiet ? undefined : (line) => console.log(`[supabase-local] ${line}`),
    seedSql: values['seed-sql'] === undefined ? undefined : await readFile(values['seed-sql'], 'utf8'),
  })
} catch (error) {
  const code = (error as NodeJS.ErrnoException).code
  console.error(
    code === 'EADDRINUSE'
      ? `Port ${port} is in use: is the local double (or \`supabase start\`) already running?`
      : `Could not start the local PostgREST double: ${error instanceof Error ? error.message : String(error)}`,
  )
  process.exit(1)
}

console.log(`Local PostgREST double (development only) on ${supabase.url}`)
console.log(`  data:       ${dataDir ?? 'in memory (lost on exit)'}`)
console.log(`  migrations: ${supabase.appliedMigrations.length ? `applied ${supabase.appliedMigrations.join(', ')}` : 'up to date'}`)
if (values['seed-sql'] !== undefined) console.log(`  seed:       ${values['seed-sql']}`)
console.log('  Use in .env.local:')
console.log(`    NEXT_PUBLIC_SUPABASE_URL=${supabase.url}`)
console.log(`    NEXT_PUBLIC_SUPABASE_ANON_KEY=${supabase.anonKey}`)
console.log(`  Service role key (owner commands; never in the browser): ${supabase.serviceRoleKey}`)

let stopping = false
const stop = async (signal: string) => {
  if (stopping) return
  stopping = true
  console.log(`\n${signal}: stopping...`)
  // A clean Postgres shutdown spares the next start a crash recovery of the data folder.
  await supabase.close()
  process.exit(0)
}
process.on('SIGINT', () => void stop('SIGINT'))
process.on('SIGTERM', () => void stop('SIGTERM'))
