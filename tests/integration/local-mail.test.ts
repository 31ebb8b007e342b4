import { stat } from 'node:fs/promises'
import path from 'node:path'
import nodemailer from 'nodemailer'
import { afterAll, describe, expect, it } from 'vitest'
import { MAIL_ROOT, startMaildev } from '@/tools/local/local-mail'
import { freePort } from '@/tools/local/run'

// Two local runs at once (a dev server and the tests, or two checkouts' suites), each with its own
// maildev: each keeps its mail in a folder of its own that nobody else can read, and emptying one
// inbox leaves the other's messages whole (on one shared /tmp/maildev, "delete all" removed every
// run's files, and the other run then failed reading a listed message's source: ENOENT).

type Run = Awaited<ReturnType<typeof startMaildev>> & { web: string; smtp: number }
const runs: Run[] = []

async function startRun(): Promise<Run> {
  const [smtp, webPort] = [await freePort(), await freePort()]
  const run = { ...(await startMaildev({ smtpPort: smtp, webPort })), web: `http://127.0.0.1:${webPort}`, smtp }
  runs.push(run)
  return run
}

async function inbox(run: Run): Promise<{ id: string; subject: string }[]> {
  return (await (await fetch(`${run.web}/api/email`)).json()) as { id: string; subject: string }[]
}

async function send(run: Run, subject: string) {
  await nodemailer
    .createTransport({ host: '127.0.0.1', port: run.smtp, secure: false, ignoreTLS: true })
    .sendMail({ from: 'site@example.com', to: 'ada@example.com', subject, text: 'token=secret' })
  await expect.poll(async () => (await inbox(run)).map((email) => email.subject)).toContain(subject)
}

afterAll(async () => {
  for (const run of runs) await run.stop()
})

describe('local mail, one folder per run', () => {
  it('gives each run its own folder under the checkout, readable by its user only', async () => {
    const [a, b] = [await startRun(), await startRun()]
    expect(a.mailDirectory).not.toBe(b.mailDirectory)
    for (const run of [a, b]) {
      expect(path.dirname(run.mailDirectory)).toBe(MAIL_ROOT)
      expect(path.basename(run.mailDirectory).startsWith(`${run.smtp}-`)).toBe(true)
      expect((await stat(run.mailDirectory)).mode & 0o777).toBe(0o700)
    }
    expect((await stat(MAIL_ROOT)).mode & 0o077).toBe(0)
  })

  it("emptying one run's inbox (the tests' reset) leaves another run's messages and their sources whole", async () => {
    const [a, b] = [await startRun(), await startRun()]
    await send(a, 'to run a')
    await send(b, 'to run b')
    await fetch(`${a.web}/api/email/all`, { method: 'DELETE' })
    expect(await inbox(a)).toEqual([])
    const [kept] = await inbox(b)
    const source = await fetch(`${b.web}/api/email/${kept!.id}/source`)
    expect(source.status).toBe(200)
    expect(await source.text()).toContain('Subject: to run b')
  })

  it('removes its folder when it stops', async () => {
    const run = await startRun()
    await send(run, 'gone with the run')
    await run.stop()
    runs.splice(runs.indexOf(run), 1)
    await expect(stat(run.mailDirectory)).rejects.toMatchObject({ code: 'ENOENT' })
  })
})
