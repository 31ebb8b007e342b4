/**
 * E-mails per second (issue #51, item 4): four dispatchers draining a queue of confirmation
 * e-mails into maildev. Each dispatcher is components/waitlist/outbox/dispatch.ts called directly,
 * run after run until a run finds nothing, with the store and SMTP transport the site's dispatch
 * route builds (components/waitlist/outbox/configured.ts: supabaseOutboxStore over supabase-js,
 * smtpEmailChannel), the store reaching the bench's PostgreSQL through the REST double. The
 * hourly cap is raised (tools/supabase-local/relax-rate-limits.sql) and everything already due is
 * set aside first, so the queue is exactly the new sign-ups' confirmation e-mails. Each arrival is
 * told apart by its Message-ID, the outbox id: every queued message must arrive exactly once.
 */
import { readdir, readFile } from 'node:fs/promises'
import path from 'node:path'
import { dispatchOutbox } from '../../../components/waitlist/outbox/dispatch'
import { smtpEmailChannel } from '../../../components/waitlist/outbox/email'
import { serviceClient } from '../../../lib/supabase/service'
import { supabaseOutboxStore } from '../../../components/waitlist/outbox/store'
import { seedEmailCopy } from '../../content/seed-email-copy'
import { startMaildev } from '../../local/local-mail'
import { LOCAL_SERVICE_ROLE_KEY } from '../../supabase-local/keys'
import { poolDatabase, type RealPostgres } from '../../supabase-local/real-postgres'
import { startRestOver } from '../../supabase-local/server'
import type { MailRun } from './targets'

/** The Message-ID of every message maildev stored (its folder holds one .eml per message). */
async function receivedIds(folder: string): Promise<string[]> {
  const ids: string[] = []
  for (const name of await readdir(folder)) {
    if (!name.endsWith('.eml')) continue
    const head = (await readFile(path.join(folder, name), 'utf8')).split(/\r?\n\r?\n/, 1)[0] ?? ''
    const id = /^message-id:\s*<([^@>]+)/im.exec(head)?.[1]
    if (id) ids.push(id)
  }
  return ids
}

export async function timeMail(
  postgres: RealPostgres,
  { queue, dispatchers, smtpPort, webPort }: { queue: number; dispatchers: number; smtpPort: number; webPort: number },
  log: (line: string) => void,
): Promise<MailRun> {
  const { owner } = postgres
  await owner.query(`update public.waitlist_outbox set status = 'skipped', note = 'set aside by the bench' where status = 'pending'`)
  const { rows: added } = await owner.query<{ id: string }>(
    `insert into public.waitlist (name, email, language)
     select 'Launch ' || i, 'launch' || i || '@mail-bench.example.org', case when i % 5 = 0 then 'de' else 'en' end from generate_series(1, $1::int) i
     returning id`,
    [queue],
  )
  const { rows } = await owner.query<{ id: string }>(
    `select id from public.waitlist_outbox where entry_id = any($1::uuid[]) and kind = 'confirmation_email' and status = 'pending'`,
    [added.map((row) => row.id)],
  )
  const queued = new Set(rows.map((row) => row.id))
  const mail = await startMaildev({ smtpPort, webPort })
  const rest = await startRestOver(poolDatabase(postgres.api))
  try {
    const copy = seedEmailCopy()
    const email = smtpEmailChannel(`smtp://127.0.0.1:${smtpPort}`, 'waitlist@example.com')
    const started = performance.now()
    let sent = 0
    await Promise.all(
      Array.from({ length: dispatchers }, async () => {
        const store = supabaseOutboxStore(serviceClient(rest.url, LOCAL_SERVICE_ROLE_KEY))
        for (;;) {
          const run = await dispatchOutbox({
            store,
            email,
            slack: null,
            webhook: null,
            slackIncludeEmail: false,
            copy: async () => copy,
            appUrl: async () => 'https://app.example.com',
            siteUrl: 'https://example.com',
          })
          sent += run.sent
          if (run.errors.length) log(`  dispatcher: ${run.errors.slice(0, 3).join('; ')}`)
          if (run.claimed === 0) return
        }
      }),
    )
    const ms = performance.now() - started
    const ids = await receivedIds(mail.mailDirectory)
    const seen = new Map<string, number>()
    for (const id of ids) seen.set(id, (seen.get(id) ?? 0) + 1)
    const duplicates = [...seen.values()].filter((count) => count > 1).length
    const missing = [...queued].filter((id) => !seen.has(id)).length
    log(`  ${sent} sent in ${(ms / 1000).toFixed(1)} s; ${ids.length} received`)
    return { dispatchers, queued: queued.size, sent, duplicates, missing, ms }
  } finally {
    await rest.close()
    await mail.stop()
  }
}
