/**
 * Local mail for `npm run dev`, `npm run preview` and the end-to-end tests: maildev (SMTP and
 * web inbox) and the outbox dispatch loop against the site.
 *
 *   tsx tools/local/mail-catcher.ts --smtp 1025 --web 1080 --site http://localhost:3000 [--interval 2000]
 *   tsx tools/local/mail-catcher.ts --external-smtp --site http://localhost:3000   (SMTP_URL is your own server)
 *
 * The dispatch secret is OUTBOX_DISPATCH_SECRET from the environment (tools/local/local-env.ts
 * sets a local one).
 */
import { parseArgs } from 'node:util'
import { runDispatchLoop, startMaildev } from './local-mail'

const { values } = parseArgs({
  options: {
    smtp: { type: 'string', default: '1025' },
    web: { type: 'string', default: '1080' },
    site: { type: 'string' },
    interval: { type: 'string', default: '2000' },
    'external-smtp': { type: 'boolean', default: false },
  },
})

// The messages maildev writes (tokens in every link) are this user's alone, on top of their
// folder's 0700 (tools/local/local-mail.ts).
process.umask(0o077)
const secret = process.env.OUTBOX_DISPATCH_SECRET
let maildev: Awaited<ReturnType<typeof startMaildev>> | null = null
try {
  if (!values['external-smtp']) maildev = await startMaildev({ smtpPort: Number(values.smtp), webPort: Number(values.web) })
} catch (error) {
  const code = (error as NodeJS.ErrnoException).code
  console.error(
    code === 'EADDRINUSE'
      ? `Port ${values.smtp} or ${values.web} is in use: is maildev already running? Stop it, or set SMTP_URL to your own server.`
      : `Could not start maildev: ${error instanceof Error ? error.message : String(error)}`,
  )
  process.exit(1)
}
console.log(
  maildev
    ? `Confirmation e-mails: http://localhost:${values.web} (maildev inbox; SMTP on port ${values.smtp})`
    : 'Confirmation e-mails: sent through SMTP_URL from your environment',
)

const loop =
  values.site && secret
    ? runDispatchLoop({ siteUrl: values.site, secret, intervalMs: Number(values.interval), log: (line) => console.log(`[outbox] ${line}`) })
    : null

const stop = async () => {
  loop?.stop()
  await maildev?.stop()
  process.exit(0)
}
process.on('SIGINT', () => void stop())
process.on('SIGTERM', () => void stop())
