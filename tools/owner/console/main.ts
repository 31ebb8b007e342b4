/**
 * Site owner command: the founders' console, a page on this machine with the waitlist's funnel,
 * sign-ups per day, sources, the head of the line and "Invite next N".
 *
 *   npm run waitlist:console                 http://127.0.0.1:4400/?token=…
 *   npm run waitlist:console -- --port 4500
 *
 * Reads with the service-role key like the other owner commands (NEXT_PUBLIC_SUPABASE_URL +
 * SUPABASE_SERVICE_ROLE_KEY from the environment, else the local double); the key stays in this
 * process. The printed address carries a token made anew for each run: only it opens the page.
 */
import { parseArgs } from 'node:util'
import { DEFAULT_PORT, startConsole } from './server'

const usage = 'Usage: npm run waitlist:console -- [--port P]'

let port: number
try {
  const { values } = parseArgs({ options: { port: { type: 'string', default: String(DEFAULT_PORT) } }, strict: true })
  port = /^\d{1,5}$/.test(values.port) ? Number(values.port) : NaN
  if (!(port >= 0 && port <= 65535)) throw new Error(`--port takes a port number, not ${values.port}.`)
} catch (error) {
  console.error(`${error instanceof Error ? error.message : String(error)}\n${usage}`)
  process.exit(2)
}

try {
  const running = await startConsole({ port, env: process.env })
  console.error(`Waitlist at ${running.database}${running.local ? ' (local)' : ''}`)
  console.log(`Founders' console: ${running.url}`)
  console.error(
    'Anyone with this address sees names and e-mails and can invite people: keep it to yourself. A new run makes a new one. Ctrl-C stops the console.',
  )
  const stop = () => void running.close().then(() => process.exit(0))
  process.on('SIGINT', stop)
  process.on('SIGTERM', stop)
} catch (error) {
  const code = (error as NodeJS.ErrnoException).code
  console.error(code === 'EADDRINUSE' ? `Port ${port} is in use; choose another with --port.` : error instanceof Error ? error.message : String(error))
  process.exit(1)
}
