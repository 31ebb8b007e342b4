/**
 * `npm run waitlist:invite`, run as the owner would (`tsx tools/owner/waitlist-invite.ts`) against
 * the local double: the next N in line, a dry run that changes nothing, one person out of order,
 * and the refusals. The invitations' database rules are in waitlist-invitations.test.ts.
 */
import { execFile } from 'node:child_process'
import path from 'node:path'
import { fileURLToPath } from 'node:url'
import { promisify } from 'node:util'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { startLocalSupabase, type LocalSupabase } from '@/tools/supabase-local/server'

const run = promisify(execFile)
const root = fileURLToPath(new URL('../..', import.meta.url))
const tsxCli = path.join(root, 'node_modules/tsx/dist/cli.mjs')

let local: LocalSupabase

beforeAll(async () => {
  local = await startLocalSupabase({ port: 0 })
  // Four people who confirmed an hour apart, and one who never did.
  await local.db.exec(`
    insert into public.waitlist (name, email, project, status, confirmed_at) values
      ('Ada First', 'ada@invite.test', '', 'confirmed', now() - interval '4 hours'),
      ('Bob Second', 'bob@invite.test', '', 'confirmed', now() - interval '3 hours'),
      ('Cy Third', 'cy@invite.test', '', 'confirmed', now() - interval '2 hours'),
      ('Di Fourth', 'di@invite.test', '', 'confirmed', now() - interval '1 hour');
    insert into public.waitlist (name, email, project) values ('Pending Person', 'pending@invite.test', '');
  `)
})
afterAll(async () => {
  await local?.close()
})

function invite(...args: string[]) {
  const { NEXT_PUBLIC_SUPABASE_URL: _url, SUPABASE_SERVICE_ROLE_KEY: _key, ...inherited } = process.env
  return run(process.execPath, [tsxCli, path.join(root, 'tools', 'owner', 'waitlist-invite.ts'), ...args], {
    cwd: root,
    env: { ...inherited, NEXT_PUBLIC_SUPABASE_URL: local.url },
  })
}
const statuses = async () => (await local.db.query<{ email: string; status: string }>('select email, status from public.waitlist order by email')).rows

describe('tools/owner/waitlist-invite.ts', () => {
  it('--dry-run shows who would be invited, in line order, and changes nothing', async () => {
    const before = await statuses()
    const { stdout } = await invite('--next', '2', '--dry-run')
    expect(stdout).toMatch(
      /^Place\s+Name\s+Email\n-+ +-+ +-+\n1\s+Ada First\s+ada@invite\.test\n2\s+Bob Second\s+bob@invite\.test\nWould invite 2 \(dry run: nothing changed, nothing sent\)\.\n$/,
    )
    expect(await statuses()).toEqual(before)
    expect((await local.db.query(`select count(*)::int as n from public.waitlist_outbox where kind = 'invitation_email'`)).rows).toEqual([{ n: 0 }])
  })

  it('--next N invites the top N and queues one invitation e-mail each', async () => {
    const { stdout } = await invite('--next', '2')
    expect(stdout).toContain('Invited 2.')
    expect(await statuses()).toEqual([
      { email: 'ada@invite.test', status: 'invited' },
      { email: 'bob@invite.test', status: 'invited' },
      { email: 'cy@invite.test', status: 'confirmed' },
      { email: 'di@invite.test', status: 'confirmed' },
      { email: 'pending@invite.test', status: 'pending' },
    ])
    const queued = await local.db.query<{ email: string }>(
      `select w.email from public.waitlist_outbox o join public.waitlist w on w.id = o.entry_id where o.kind = 'invitation_email' order by 1`,
    )
    expect(queued.rows).toEqual([{ email: 'ada@invite.test' }, { email: 'bob@invite.test' }])
  })

  it('--email invites one person out of order; anyone not waiting in line is refused with the reason (exit 1)', async () => {
    const { stdout } = await invite('--email', 'DI@invite.test')
    expect(stdout).toMatch(/^Place\s+Name\s+Email\n-+ +-+ +-+\n2\s+Di Fourth\s+di@invite\.test\nInvited 1\./)
    for (const [address, reason] of [
      ['ada@invite.test', 'status is invited'],
      ['pending@invite.test', 'status is pending'],
      ['nobody@invite.test', 'not on the list'],
    ]) {
      const refused = await invite('--email', address!).catch((error: { code: number; stdout: string }) => error)
      expect(refused).toMatchObject({ code: 1, stdout: `Not invited: ${address}: ${reason}\n` })
    }
  })

  it('refuses unclear arguments (exit 2)', async () => {
    for (const args of [[], ['--next', '0'], ['--next', 'two'], ['--next', '1', '--email', 'a@b.co'], ['--later']]) {
      await expect(invite(...args), args.join(' ')).rejects.toMatchObject({ code: 2 })
    }
  })
})
