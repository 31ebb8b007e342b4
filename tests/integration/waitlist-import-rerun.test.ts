/**
 * `npm run waitlist:import` killed half-way and run again (issue #66, the red team's scenario 1),
 * through supabase-js and the REST double over real PostgreSQL with the API's statement timeouts
 * (12,001 rows) and over PGlite (1,201): the command dies after its first chunk, the file is fixed
 * and run again, the dispatcher's clean-up runs, and every person is on the list once, nothing
 * about the dead run's people having left. Also: a run waits for another run's import that is still
 * writing, and a consented import of more than one chunk passes within the 8 s limit.
 */
import { spawn } from 'node:child_process'
import { mkdtemp, writeFile } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import path from 'node:path'
import { fileURLToPath } from 'node:url'
import { randomUUID } from 'node:crypto'
import { afterAll, beforeAll, beforeEach, expect, it } from 'vitest'
import { fileSha256, importRows, planImport } from '@/tools/owner/import'
import { ownerClient } from '@/tools/owner/owner'
import { startRestOver } from '@/tools/supabase-local/server'
import type { RestDatabase } from '@/tools/supabase-local/postgrest'
import { emptyList, onEachDatabase, runAs, waitlistDbTargets, webhooks, type WaitlistDb } from '../helpers/waitlist-db'

const root = fileURLToPath(new URL('../..', import.meta.url))
const targets = await waitlistDbTargets('waitlist-import-rerun')

let db: WaitlistDb
// The red team's 12,001 rows on the real server; on PGlite, slower a row and the same code, a tenth.
let rows = 0

onEachDatabase(
  targets,
  (opened, target) => {
    db = opened
    rows = target === 'PostgreSQL' ? 12_001 : 1_201
  },
  () => {
    let rest: Awaited<ReturnType<typeof startRestOver>>
    let dir: string
    const owner = () => ownerClient({ NEXT_PUBLIC_SUPABASE_URL: rest.url }).client
    const importCommand = (file: string) =>
      // One process (tsx as a loader, not its CLI, which runs the command in a child a kill would miss).
      spawn(process.execPath, ['--import', 'tsx', path.join(root, 'tools/owner/waitlist-import.ts'), file], {
        cwd: root,
        env: { ...process.env, NEXT_PUBLIC_SUPABASE_URL: rest.url, SUPABASE_SERVICE_ROLE_KEY: rest.serviceRoleKey },
        stdio: ['ignore', 'pipe', 'pipe'],
      })
    const count = async (sql: string) => (await db.query<{ n: number }>(`select count(*)::int as n from ${sql}`)).rows[0]!.n

    // The server side of the kill: the command dies the moment its first chunk is committed, before
    // it hears so (in the same turn of the event loop, which PGlite, working in this process, would
    // otherwise hold until every chunk is in); what it had sent meanwhile reaches no database.
    let killAfterFirstChunk: (() => void) | null = null
    let chunksCommitted = 0
    const database = (): RestDatabase => {
      const underlying = db as unknown as RestDatabase
      return {
        query: (sql, params) => underlying.query(sql, params),
        async transaction(work) {
          let chunk = false
          const result = await underlying.transaction((tx) =>
            work({
              query(sql, params) {
                chunk ||= sql.includes('waitlist_import_chunk')
                if (chunk && killAfterFirstChunk && chunksCommitted > 0) throw new Error('the command is dead')
                return tx.query(sql, params)
              },
            }),
          )
          if (chunk && killAfterFirstChunk && ++chunksCommitted === 1) killAfterFirstChunk()
          return result
        },
      }
    }

    beforeAll(async () => {
      rest = await startRestOver(database())
      dir = await mkdtemp(path.join(tmpdir(), 'waitlist-import-rerun-'))
    })
    afterAll(async () => {
      await rest?.close()
    })
    beforeEach(async () => {
      await emptyList(db, 'private.waitlist_imports', 'private.waitlist_questions')
      await webhooks(db, true)
    })

    it('killed after its first chunk, the file fixed and run again, the clean-up run: every row on the list, once each', { timeout: 240_000 }, async () => {
      const people = Array.from({ length: rows }, (_, i) => `Person ${i},person${i}@rerun.test`)
      // The first file has one row the checks refuse (near its end); the founder fixes it.
      const broken = [...people]
      broken[rows - 2] = `=cmd(),person${rows - 2}@rerun.test`
      const first = path.join(dir, 'list.csv')
      await writeFile(first, `name,email\n${broken.join('\n')}\n`)

      const command = importCommand(first)
      chunksCommitted = 0
      killAfterFirstChunk = () => command.kill('SIGKILL')
      await new Promise((resolve) => command.once('exit', resolve))
      killAfterFirstChunk = null
      const written = await count('public.waitlist')
      expect(written).toBeGreaterThan(0)
      expect(written).toBeLessThan(rows - 1)
      expect(await count('private.waitlist_imports where committed_at is null')).toBe(1)

      // A minute later (the run is quiet), the fixed file.
      await db.exec(`update private.waitlist_imports set started_at = now() - interval '2 minutes';
                     update private.waitlist_imported set written_at = now() - interval '2 minutes';`)
      const fixed = path.join(dir, 'fixed.csv')
      await writeFile(fixed, `name,email\n${people.join('\n')}\n`)
      const rerun = await new Promise<{ code: number | null; stdout: string }>((resolve) => {
        const child = importCommand(fixed)
        let stdout = ''
        child.stdout!.on('data', (data: Buffer) => (stdout += data.toString()))
        child.once('exit', (code) => resolve({ code, stdout }))
      })
      expect(rerun.code, rerun.stdout.slice(0, 2000)).toBe(0)
      expect(rerun.stdout).toContain('1 unfinished import of a run that stopped was taken out first')
      expect(rerun.stdout).not.toContain('Already on the list')
      expect(rerun.stdout).toContain(`Imported ${rows.toLocaleString('en')} people`)

      // The clean-up the dispatcher runs (its purge takes out what is left of dead imports).
      expect(await runAs(db, 'service_role', 'select public.waitlist_purge_pending()', [], { keep: true, request: { headers: {} } })).toMatchObject({
        ok: true,
      })
      expect(await count('public.waitlist')).toBe(rows)
      expect(await count(`(select distinct lower(email) from public.waitlist where email like 'person%@rerun.test') people`)).toBe(rows)
      expect(await count(`public.waitlist_outbox where kind = 'webhook' and payload ->> 'type' = 'entry.left'`)).toBe(0)
      expect(await count(`public.waitlist_outbox where available_at = 'infinity'`)).toBe(0)
      expect(await count(`public.waitlist_outbox where kind = 'confirmation_email'`)).toBe(rows)
    })

    it('waits for another run whose import is still writing, and imports once that one has ended', async () => {
      const other = randomUUID()
      const client = owner()
      expect((await client.rpc('waitlist_import_begin', { import_id: other, file_sha256: 'b'.repeat(64), consent: '', timed_rows: 0 })).error).toBeNull()
      const plan = planImport('name,email\nAnn,ann@wait.test\n', [])
      if ('problem' in plan) throw new Error(plan.problem)
      const options = { consent: null, sha256: fileSha256(Buffer.from('wait')), pollMs: 50 }
      await expect(importRows(client, plan.rows, { ...options, waitMs: 200 })).rejects.toThrow(/another import \(.*\) is still writing/)

      const waits: string[] = []
      const importing = importRows(client, plan.rows, { ...options, waitMs: 10_000, onWaiting: (open) => waits.push(open.id) })
      await new Promise((resolve) => setTimeout(resolve, 300))
      expect((await client.rpc('waitlist_import_commit', { import_id: other })).error).toBeNull()
      expect(await importing).toMatchObject({ written: 1, abandoned: 0, released: true })
      expect(waits[0]).toBe(other)
      expect(await count(`public.waitlist where email = 'ann@wait.test'`)).toBe(1)
    })

    it('a consented import of more than one chunk passes within the API statement timeout, everyone confirmed once', { timeout: 120_000 }, async () => {
      const consented = Math.min(rows, 5_001)
      const plan = planImport(`name,email\n${Array.from({ length: consented }, (_, i) => `Consented ${i},c${i}@consented.test`).join('\n')}\n`, [])
      if ('problem' in plan) throw new Error(plan.problem)
      const result = await importRows(owner(), plan.rows, { consent: 'Opted in on getwaitlist.com, March 2026', sha256: fileSha256(Buffer.from('consented')) })
      expect({ written: result.written, released: result.released }).toEqual({ written: consented, released: true })
      expect(await count(`public.waitlist where status = 'confirmed'`)).toBe(consented)
      expect(await count(`private.waitlist_line where line_key is not null`)).toBe(consented)
      expect(await count(`public.waitlist_outbox where kind = 'webhook' and payload ->> 'type' = 'entry.confirmed' and payload ? 'import'`)).toBe(consented)
      expect(await count(`public.waitlist_outbox where kind in ('slack_confirmed', 'confirmation_email')`)).toBe(0)
    })
  },
)
