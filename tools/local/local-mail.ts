import { MailDev } from 'maildev'

/**
 * The embedded mail server for local runs and tests: maildev from npm, SMTP and its web inbox
 * (and REST API: GET /api/email, DELETE /api/email/all) on the loopback interface only.
 */
export async function startMaildev({ smtpPort, webPort }: { smtpPort: number; webPort: number }): Promise<{ stop(): Promise<void> }> {
  const maildev = new MailDev({ smtp: smtpPort, ip: '127.0.0.1', web: webPort, webIp: '127.0.0.1', silent: true })
  await maildev.start()
  return { stop: () => maildev.stop() }
}

/**
 * Locally there is no Database Webhook and no scheduler: this calls the site's dispatch route
 * every `intervalMs`, one call at a time, with the local secret. Errors while the site starts
 * are expected and stay quiet; sends and failures are printed.
 */
export function runDispatchLoop({ siteUrl, secret, intervalMs, log }: { siteUrl: string; secret: string; intervalMs: number; log: (line: string) => void }): { stop(): void } {
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
