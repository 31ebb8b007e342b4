import { mkdir, mkdtemp, readdir, rm } from 'node:fs/promises'
import path from 'node:path'
import { fileURLToPath } from 'node:url'
import { MailDev } from 'maildev'

/** Where every local run of this checkout keeps its mail: one folder per run beneath it. */
export const MAIL_ROOT = fileURLToPath(new URL('../../.local/mail', import.meta.url))

/** Whether a process still runs (a folder left by a run that crashed is removed by the next one). */
function alive(pid: number): boolean {
  try {
    process.kill(pid, 0)
    return true
  } catch (error) {
    return (error as NodeJS.ErrnoException).code === 'EPERM'
  }
}

/**
 * This run's own mail folder, `.local/mail/<smtp port>-<pid>-<random>`, mode 0700 (mkdtemp's): the
 * messages hold confirmation and unsubscribe tokens, so nobody else on the machine reads them, and
 * no other run (another checkout's tests, or this one's dev server) shares or clears it. maildev's
 * default, one /tmp/maildev for every run on the machine, is what its "delete all" emptied for all.
 */
async function runMailFolder(smtpPort: number): Promise<string> {
  await mkdir(MAIL_ROOT, { recursive: true, mode: 0o700 })
  for (const name of await readdir(MAIL_ROOT)) {
    const pid = Number(/^\d+-(\d+)-/.exec(name)?.[1])
    if (pid && !alive(pid)) await rm(path.join(MAIL_ROOT, name), { recursive: true, force: true })
  }
  return mkdtemp(path.join(MAIL_ROOT, `${smtpPort}-${process.pid}-`))
}

/**
 * The embedded mail server for local runs and tests: maildev from npm, SMTP and its web inbox
 * (and REST API: GET /api/email, DELETE /api/email/all, which empties this run's folder only) on
 * the loopback interface only. Its folder goes when it stops: local mail lasts one run, as before.
 */
export async function startMaildev({ smtpPort, webPort }: { smtpPort: number; webPort: number }): Promise<{ mailDirectory: string; stop(): Promise<void> }> {
  const mailDirectory = await runMailFolder(smtpPort)
  const maildev = new MailDev({ smtp: smtpPort, ip: '127.0.0.1', web: webPort, webIp: '127.0.0.1', silent: true, mailDirectory })
  try {
    await maildev.start()
  } catch (error) {
    await rm(mailDirectory, { recursive: true, force: true })
    throw error
  }
  return {
    mailDirectory,
    async stop() {
      await maildev.stop()
      await rm(mailDirectory, { recursive: true, force: true })
    },
  }
}

/**
 * Locally there is no pg_net (the outbox's wake-up, supabase/schemas/07_outbox_wake.sql) and no scheduler: this calls the site's dispatch route
 * every `intervalMs`, one call at a time, with the local secret. Errors while the site starts
 * are expected and stay quiet; sends and failures are printed.
 */
export function runDispatchLoop({ siteUrl, secret, intervalMs, log }: { siteUrl: string; secret: string; intervalMs: number; log: (line: string) => void }): {
  stop(): void
} {
  let stopped = false
  let lastProblem = ''
  const url = new URL('/api/outbox/dispatch', siteUrl)
  void (async () => {
    while (!stopped) {
      try {
        const response = await fetch(url, { method: 'POST', headers: { authorization: `Bearer ${secret}` }, signal: AbortSignal.timeout(120_000) })
        const report = (await response.json().catch(() => ({}))) as { sent?: number; failed?: number; purged?: number; reason?: string }
        const problem = response.ok ? '' : `HTTP ${response.status}${report.reason ? ` (${report.reason})` : ''}`
        if (problem && problem !== lastProblem) log(`dispatch answered ${problem}`)
        lastProblem = problem
        if (report.sent) log(`sent ${report.sent} message${report.sent === 1 ? '' : 's'}`)
        if (report.failed) log(`${report.failed} send${report.failed === 1 ? '' : 's'} failed; retried with backoff`)
        if (report.purged) log(`deleted ${report.purged} expired unconfirmed sign-up${report.purged === 1 ? '' : 's'}`)
      } catch {
        // The site is not up yet, or restarting.
      }
      await new Promise((resolve) => setTimeout(resolve, intervalMs))
    }
  })()
  return {
    stop() {
      stopped = true
    },
  }
}

/**
 * A received message's headers as sent, lower-cased names, folded lines joined. From the raw
 * source: maildev's JSON leaves out the ones its parser turns into structures (List-Unsubscribe,
 * List-Unsubscribe-Post).
 */
export async function receivedHeaders(webUrl: string, id: string): Promise<Record<string, string>> {
  const source = await (await fetch(`${webUrl}/api/email/${id}/source`)).text()
  const head = source.split(/\r?\n\r?\n/, 1)[0] ?? ''
  const headers: Record<string, string> = {}
  for (const line of head.replace(/\r?\n[ \t]+/g, ' ').split(/\r?\n/)) {
    const colon = line.indexOf(':')
    if (colon > 0) headers[line.slice(0, colon).trim().toLowerCase()] = line.slice(colon + 1).trim()
  }
  return headers
}
