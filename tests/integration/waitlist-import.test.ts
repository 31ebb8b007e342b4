/**
 * `npm run waitlist:import` against the local PostgREST double, as a founder moving from another
 * tool uses it: the dry run writes nothing and says what would happen; the import writes every good
 * row through the form's rules (pending with a held-then-released confirmation e-mail, or confirmed
 * with the consent kept), keeps original sign-up times and their order in line, skips anyone
 * already on the list in any spelling, flags disposable domains; running the file again adds
 * nobody; a failure part-way leaves nothing (and no webhook about anyone); a run that died is taken
 * out by the next; and the public key can call none of it. The database's side on PGlite and
 * real PostgreSQL: tests/integration/waitlist-import-db.test.ts.
 */
import { execFile } from 'node:child_process'
import { mkdtemp, writeFile } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import path from 'node:path'
import { fileURLToPath } from 'node:url'
import { promisify } from 'node:util'
import { createClient } from '@supabase/supabase-js'
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest'
import { dispatchOutbox } from '@/components/waitlist/outbox/dispatch'
import type { OutgoingEmail } from '@/components/waitlist/outbox/email'
import { supabaseOutboxStore } from '@/components/waitlist/outbox/store'
import { serviceClient } from '@/lib/supabase/service'
import { seedEmailCopy } from '@/tools/content/seed-email-copy'
import { fileSha256, importRows, planImport, type ImportPlan } from '@/tools/owner/import'
import { ownerClient } from '@/tools/owner/owner'
import { startLocalSupabase, type LocalSupabase } from '@/tools/supabase-local/server'
import type { PublishedQuestion } from '@/sanity/questions/rules'
import { ROLE_QUESTION } from '../helpers/questions'
import { newToken, sha256 } from '../helpers/waitlist-people'

const run = promisify(execFile)
const root = fileURLToPath(new URL('../..', import.meta.url))

const QUESTIONS: PublishedQuestion[] = [{ ...ROLE_QUESTION, required: true }]

// Already on the list here: Jane (confirmed, in line) and Kim.
const LIST = `name,email,company,signed_up_at,source,language,role
Old Ann,ann@import.test,Acme,2025-06-01T10:00:00Z,getwaitlist,en,Product manager
Jane again,Jane.Doe+old@googlemail.com,,2025-01-01,getwaitlist,en,
Older Bo,bo@import.test,,2025-02-01T08:00:00Z,getwaitlist,de,gründerin
"=HYPERLINK(""http://evil.example"")",evil@import.test,,,,,
Throwaway,t@mailinator.com,,,getwaitlist,en,
No time,notime@import.test,,,,,founder
Bo twice,BO@IMPORT.TEST,,,,,
`

let local: LocalSupabase
let dir: string

beforeAll(async () => {
  local = await startLocalSupabase({ port: 0 })
  await local.db.query('select public.waitlist_replace_questions($1::jsonb)', [JSON.stringify(QUESTIONS)])
  dir = await mkdtemp(path.join(tmpdir(), 'waitlist-import-'))
}, 120_000)

afterAll(async () => {
  await local?.close()
})

beforeEach(async () => {
  await local.db.exec(`
    delete from public.waitlist; delete from public.waitlist_outbox; delete from private.waitlist_imports;
    update private.waitlist_webhook_settings set enabled = true;
    insert into public.waitlist (name, email, status, answers) values ('Jane', 'jane.doe@gmail.com', 'confirmed', '{"role": "founder"}');
    insert into public.waitlist (name, email, answers) values ('Kim', 'kim@import.test', '{"role": "founder"}');
  `)
})

async function listFile(text = LIST): Promise<string> {
  const file = path.join(dir, `list-${Math.random().toString(36).slice(2)}.csv`)
  await writeFile(file, text)
  return file
}

const importCommand = (...args: string[]) => {
  const { NEXT_PUBLIC_SUPABASE_URL: _url, SUPABASE_SERVICE_ROLE_KEY: _key, ...inherited } = process.env
  return run(process.execPath, [path.join(root, 'node_modules/tsx/dist/cli.mjs'), path.join(root, 'tools/owner/waitlist-import.ts'), ...args], {
    cwd: root,
    env: { ...inherited, NEXT_PUBLIC_SUPABASE_URL: local.url },
  }).then(
    ({ stdout, stderr }) => ({ code: 0, stdout, stderr }),
    (error: { code: number; stdout: string; stderr: string }) => error,
  )
}

type Entry = {
  email: string
  name: string
  status: string
  created_at: string
  utm_source: string | null
  utm_medium: string | null
  flag: string | null
  language: string
  answers: unknown
}
const entries = async () =>
  (
    await local.db.query<Entry>(
      `select email, name, status, to_char(created_at at time zone 'utc', 'YYYY-MM-DD"T"HH24:MI:SS"Z"') as created_at, utm_source, utm_medium, flag, language, answers
         from public.waitlist order by email`,
    )
  ).rows
const outbox = async () =>
  (
    await local.db.query<{ email: string; kind: string; held: boolean; imported: boolean }>(
      `select w.email, o.kind, o.available_at = 'infinity' as held, o.payload ? 'import' as imported
         from public.waitlist_outbox o join public.waitlist w on w.id = o.entry_id order by w.email, o.kind`,
    )
  ).rows
const placesInLine = async () =>
  (
    await local.db.query<{ email: string }>(
      `select w.email from private.waitlist_line l join public.waitlist w on w.id = l.entry_id where l.line_key is not null order by l.line_key, l.arrival`,
    )
  ).rows.map((row) => row.email)

describe('npm run waitlist:import', () => {
  it('--dry-run reports every bad row by line, who is already listed and who is disposable, and writes nothing', async () => {
    const before = await entries()
    const { code, stdout } = await importCommand(await listFile(), '--dry-run')
    expect(code).toBe(0)
    expect(stdout).toContain('7 rows read.')
    expect(stdout).toContain(
      'Not imported, 2 bad rows:\n  line 5: the name starts with "=", which a spreadsheet runs as a formula\n  line 8: the same mailbox as line 4',
    )
    expect(stdout).toContain('Already on the list (any spelling), skipped: line 3.')
    expect(stdout).toContain('At a disposable-mail domain, imported and flagged "disposable": line 6.')
    expect(stdout).toContain('Would import 4 people, pending')
    expect(stdout).toContain('Nothing was written (--dry-run).')
    expect(await entries()).toEqual(before)
    expect((await local.db.query('select * from private.waitlist_imports')).rows).toEqual([])
  })

  it('imports the good rows pending, as the form would store them, their confirmations released once, after the commit; again adds nobody', async () => {
    const file = await listFile()
    const first = await importCommand(file)
    expect(first.code).toBe(0)
    expect(first.stdout).toContain('Imported 4 people, pending: each gets our confirmation e-mail')
    const imported = (await entries()).filter((entry) => entry.utm_medium === 'import')
    expect(imported).toEqual([
      {
        email: 'ann@import.test',
        name: 'Old Ann',
        status: 'pending',
        created_at: '2025-06-01T10:00:00Z',
        utm_source: 'getwaitlist',
        utm_medium: 'import',
        flag: null,
        language: 'en',
        answers: { role: { question: 'What is your role?', kind: 'one', options: ['product-manager'], labels: ['Product manager'] } },
      },
      {
        email: 'bo@import.test',
        name: 'Older Bo',
        status: 'pending',
        created_at: '2025-02-01T08:00:00Z',
        utm_source: 'getwaitlist',
        utm_medium: 'import',
        flag: null,
        language: 'de',
        answers: { role: { question: 'Was ist Ihre Rolle?', kind: 'one', options: ['founder'], labels: ['Gründerin'] } },
      },
      expect.objectContaining({ email: 'notime@import.test', status: 'pending', utm_source: null, flag: null }),
      // A required question the old tool never asked: left unanswered, not refused.
      expect.objectContaining({ email: 't@mailinator.com', flag: 'disposable', answers: {} }),
    ])
    // One confirmation each, released (not held), marked as an import's (claimed after every other e-mail); no Slack post.
    const here = ['jane.doe@gmail.com', 'kim@import.test']
    expect((await outbox()).filter((message) => !here.includes(message.email))).toEqual(
      ['ann@import.test', 'bo@import.test', 'notime@import.test', 't@mailinator.com'].map((email) => ({
        email,
        kind: 'confirmation_email',
        held: false,
        imported: true,
      })),
    )
    expect(
      (await local.db.query(`select committed_at is not null as committed, released_at is not null as released from private.waitlist_imports`)).rows,
    ).toEqual([{ committed: true, released: true }])

    const again = await importCommand(file)
    expect(again.code).toBe(0)
    expect(again.stdout).toContain('Already on the list (any spelling), skipped: lines 2, 3, 4, 6, 7.')
    expect(again.stdout).toContain('Imported 0 people')
    expect((await entries()).length).toBe(6)
  })

  it("sends each imported person the imported list's confirmation e-mail, in their language, and its link confirms them", async () => {
    expect((await importCommand(await listFile())).code).toBe(0)
    const sent: OutgoingEmail[] = []
    const report = await dispatchOutbox({
      store: supabaseOutboxStore(serviceClient(local.url, local.serviceRoleKey)),
      email: async (email) => void sent.push(email),
      slack: null,
      slackIncludeEmail: false,
      copy: async (language) => seedEmailCopy(language),
      appUrl: async () => 'https://app.heardly.example',
      siteUrl: 'https://heardly.example',
    })
    expect(report.errors).toEqual([])
    const to = (address: string) => sent.find((email) => email.to.address === address)!
    const [en, de] = [seedEmailCopy('en'), seedEmailCopy('de')]
    expect(to('ann@import.test').subject).toBe(en.importSubject)
    for (const paragraph of en.importBody.split('\n')) expect(to('ann@import.test').text).toContain(paragraph)
    expect(to('ann@import.test').text).toContain(en.importFooter)
    expect(to('bo@import.test').subject).toBe(de.importSubject)
    // Kim signed up here: hers is the ordinary confirmation.
    expect(to('kim@import.test').subject).toBe(en.subject)

    const token = /#token=([A-Za-z0-9_-]{43})/.exec(to('ann@import.test').text)![1]!
    expect((await local.db.query<{ value: string }>('select public.waitlist_confirm($1) as value', [token])).rows[0]!.value).toBe('confirmed')
  })

  it('--consented imports them confirmed, in line by their original times ahead of everyone here, the consent in their own data', async () => {
    const { code, stdout } = await importCommand(await listFile(), '--consented', 'Opted in on getwaitlist.com, 2025')
    expect(code).toBe(0)
    expect(stdout).toContain('Imported 4 people, confirmed, with the consent "Opted in on getwaitlist.com, 2025" kept for each.')
    // Bo (Feb 2025) before Ann (June 2025), both before Jane (here); the rows without a time after her, in file order.
    expect(await placesInLine()).toEqual(['bo@import.test', 'ann@import.test', 'jane.doe@gmail.com', 't@mailinator.com', 'notime@import.test'])
    // Confirmed people get no confirmation e-mail and no Slack post; their entry.confirmed webhooks are released.
    const messages = (await outbox()).filter((message) => message.email.endsWith('import.test') && message.email !== 'kim@import.test')
    expect(messages.map(({ email, kind, held }) => [email, kind, held])).toEqual([
      ['ann@import.test', 'webhook', false],
      ['bo@import.test', 'webhook', false],
      ['notime@import.test', 'webhook', false],
    ])
    const token = newToken()
    await local.db.query(
      `insert into private.waitlist_tokens (token_hash, entry_id, expires_at) select $1, id, now() + interval '1 day' from public.waitlist where email = 'bo@import.test'`,
      [sha256(token)],
    )
    const own = (await local.db.query<{ value: { imported: Record<string, unknown> } }>('select public.waitlist_export_me($1) as value', [token])).rows[0]!
      .value
    expect(own.imported).toEqual({ imported_at: expect.any(String), line: 4, consent: 'Opted in on getwaitlist.com, 2025' })
  })

  it('reports a 10 MB line by its number and still reads the rows after it', async () => {
    const huge = 'x'.repeat(10 * 1024 * 1024)
    const { code, stdout } = await importCommand(await listFile(`name,email\nAnn,ann@huge.test\n"${huge}",big@huge.test\nBo,bo@huge.test\n`), '--dry-run')
    expect(code).toBe(0)
    expect(stdout).toContain('Not imported, 1 bad row:\n  line 3: longer than 16,384 characters')
    expect(stdout).toContain('Would import 2 people')
  })

  it('refuses a consent that is not plain text, and a file it cannot read, writing nothing', async () => {
    const file = await listFile()
    const refused = await importCommand(file, '--consented', 'ok\u202Eevil')
    expect(refused.code).toBe(2)
    expect(refused.stderr).toContain('--consented takes where and when they opted in')
    const unreadable = await importCommand(await listFile('mail,who\nx,y\n'))
    expect(unreadable.code).toBe(2)
    expect(unreadable.stderr).toContain('its header names no "name" and "email" columns')
    expect((await entries()).length).toBe(2)
  })
})

describe('all or none', () => {
  const plan = (text: string): ImportPlan => {
    const read = planImport(text, QUESTIONS)
    if ('problem' in read) throw new Error(read.problem)
    return read
  }
  const owner = () => ownerClient({ NEXT_PUBLIC_SUPABASE_URL: local.url }).client

  it('a chunk the database refuses takes the chunks before it out again: nobody imported, no message, no entry.left webhook', async () => {
    const { rows } = plan('name,email\nA,a@allornone.test\nB,b@allornone.test\nC,c@allornone.test\n')
    // A row the checks passed but the database refuses (a language code its constraint rejects).
    rows[2]!.language = 'not a language'
    const before = await entries()
    await expect(importRows(owner(), rows, { consent: 'consented', sha256: fileSha256(Buffer.from('x')), chunkRows: 1 })).rejects.toThrow(
      /Could not write lines 4 to 4/,
    )
    expect(await entries()).toEqual(before)
    expect((await local.db.query(`select kind, payload ->> 'type' as type from public.waitlist_outbox where entry_id is null`)).rows).toEqual([])
    expect((await local.db.query('select * from private.waitlist_imports')).rows).toEqual([])
  })

  it('an import a run left open is taken out by the next run, which imports everyone once', async () => {
    const text = 'name,email\nA,a@rerun.test\nB,b@rerun.test\n'
    const file = await listFile(text)
    const { rows } = plan(text)
    const client = owner()
    const id = '6f1f7c55-7c55-4c55-8c55-6f1f7c557c55'
    expect(
      (await client.rpc('waitlist_import_begin', { import_id: id, file_sha256: fileSha256(Buffer.from(text)), consent: '', timed_rows: 0 })).error,
    ).toBeNull()
    expect((await client.rpc('waitlist_import_chunk', { import_id: id, rows: rows.slice(0, 1) as never })).error).toBeNull()
    // Held: the person is in the table, but nothing about them may leave.
    expect(await outbox()).toContainEqual({ email: 'a@rerun.test', kind: 'confirmation_email', held: true, imported: true })
    // The run died a minute ago (a live one would be waited for: tests/integration/waitlist-import-rerun.test.ts).
    await local.db.exec(`update private.waitlist_imports set started_at = now() - interval '2 minutes';
                         update private.waitlist_imported set written_at = now() - interval '2 minutes';`)

    const { code, stdout } = await importCommand(file)
    expect(code).toBe(0)
    expect(stdout).toContain('1 unfinished import of a run that stopped was taken out first (nobody in it was on the list yet).')
    expect(stdout).toContain('Imported 2 people')
    expect((await entries()).filter((entry) => entry.email.endsWith('rerun.test')).length).toBe(2)
    expect((await outbox()).filter((message) => message.email.endsWith('rerun.test')).every((message) => !message.held)).toBe(true)
  })

  it('the public key can call none of it', async () => {
    const anon = createClient(local.url, local.anonKey, { auth: { persistSession: false } })
    const id = '7f1f7c55-7c55-4c55-8c55-6f1f7c557c55'
    for (const [fn, args] of [
      ['waitlist_import_begin', { import_id: id, file_sha256: 'a'.repeat(64), consent: 'forged', timed_rows: 0 }],
      ['waitlist_import_chunk', { import_id: id, rows: [] }],
      ['waitlist_import_commit', { import_id: id }],
      ['waitlist_import_abort', { import_id: id }],
      ['waitlist_import_check', { rows: [{ line: 1, email: 'jane.doe@gmail.com' }] }],
      ['waitlist_imports_open', {}],
    ] as const) {
      const { error, data } = await anon.rpc(fn as never, args as never)
      expect({ fn, data, refused: error !== null }).toEqual({ fn, data: null, refused: true })
    }
    expect((await local.db.query('select * from private.waitlist_imports')).rows).toEqual([])
  })
})
