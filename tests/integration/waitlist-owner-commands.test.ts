/**
 * The site owner's commands, run as the owner would (`tsx tools/owner/...`),
 * against the local double.
 */
import { execFile } from 'node:child_process'
import { chmod, mkdtemp, readFile, rm, stat, writeFile } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import path from 'node:path'
import { fileURLToPath } from 'node:url'
import { promisify } from 'node:util'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { createWaitlistClient } from '@/components/waitlist/client'
import { joinWaitlist } from '@/components/waitlist/join'
import { resolveOwnerConfig } from '@/tools/owner/owner'
import { LOCAL_SERVICE_ROLE_KEY, LOCAL_SUPABASE_URL } from '@/tools/supabase-local/keys'
import { startLocalSupabase, type LocalSupabase } from '@/tools/supabase-local/server'

const run = promisify(execFile)
const root = fileURLToPath(new URL('../..', import.meta.url))
const tsxCli = path.join(root, 'node_modules/tsx/dist/cli.mjs')

let local: LocalSupabase
let workDir: string

beforeAll(async () => {
  local = await startLocalSupabase({ port: 0 })
  workDir = await mkdtemp(path.join(tmpdir(), 'waitlist-owner-'))
  const client = createWaitlistClient(local.url, local.anonKey)
  for (const input of [
    {
      name: 'Ada Lovelace',
      email: 'ada@example.com',
      company: 'Engines, Ltd.',
      source: { utm_source: 'newsletter', utm_medium: 'email', utm_campaign: 'launch', referrer_host: 'news.example', landing_path: '/pricing' },
    },
    { name: '=HYPERLINK("http://evil.example","click")', email: 'eve@example.com' },
  ]) {
    expect(await joinWaitlist(client, input, 'source' in input ? input.source : {})).toEqual({ status: 'saved' })
  }
  // Rows stored before names had to be plain text (*_waitlist_abuse.sql keeps them: NOT VALID), as a
  // script wrote them then: escapes for the terminal, a bidi override, a line break inside a cell.
  await local.db.exec(`
    alter table public.waitlist drop constraint waitlist_name_plain, drop constraint waitlist_project_plain;
    insert into public.waitlist (name, email, project) values
      (E'Terminal \\u001b[31mred\\u001b[0m\\u0007', 'ansi@example.com', E'evil\\u202Etxt.exe'),
      ('Semi', 'semi@example.com', E'Acme;=HYPERLINK("http://evil.example")\\n@SUM(A1)');
    alter table public.waitlist
      add constraint waitlist_name_plain check (waitlist_rules.plain_text(name)) not valid,
      add constraint waitlist_project_plain check (waitlist_rules.plain_text(project)) not valid;
  `)
  // Ada confirms (as the confirm page would, with the token the dispatcher e-mailed).
  const token = 'owner-commands-test-token-00000000000000000'
  const mailToken = (email: string, value: string) =>
    local.db.query(
      `insert into private.waitlist_tokens (token_hash, entry_id, expires_at) select encode(sha256(convert_to($2, 'UTF8')), 'hex'), id, now() + interval '1 day' from public.waitlist where email = $1`,
      [email, value],
    )
  await mailToken('ada@example.com', token)
  expect((await client.rpc('waitlist_confirm', { token })).data).toBe('confirmed')
  // A friend joins through Ada's referral link and confirms: Ada's first referral.
  const { rows } = await local.db.query<{ referral_code: string }>(`select referral_code from public.waitlist where email = 'ada@example.com'`)
  expect(await joinWaitlist(client, { name: 'Friend', email: 'friend@example.com' }, { ref: rows[0]!.referral_code })).toEqual({ status: 'saved' })
  const friendToken = 'owner-commands-test-token-11111111111111111'
  await mailToken('friend@example.com', friendToken)
  expect((await client.rpc('waitlist_confirm', { token: friendToken })).data).toBe('confirmed')
  // Both joined from this machine (the double's every request is 127.0.0.1), so that referral's
  // credit is held until a founder grants it: the first describe below does, with the command.
})

afterAll(async () => {
  await local?.close()
  if (workDir) await rm(workDir, { recursive: true, force: true })
})

/** Runs a script with Node (the one running the tests) and only the given Supabase variables. */
function runScript(script: string, args: string[], env: Record<string, string>) {
  const { NEXT_PUBLIC_SUPABASE_URL: _url, SUPABASE_SERVICE_ROLE_KEY: _key, ...inherited } = process.env
  return run(process.execPath, [tsxCli, path.join(root, 'tools', 'owner', script), ...args], {
    cwd: root,
    env: { ...inherited, ...env },
  })
}

describe('tools/owner/waitlist-credits.ts', () => {
  const env = () => ({ NEXT_PUBLIC_SUPABASE_URL: local.url })
  const failure = (error: { code: number; stdout: string; stderr: string }) => error

  it('--held lists the credit held because Ada’s friend joined from her network, and it has not moved her', async () => {
    const { stdout } = await runScript('waitlist-credits.ts', ['--held'], env())
    expect(stdout).toMatch(/^Id\s+Held \(UTC\)\s+Why\s+Referrer\s+Referrer e-mail\s+Referred e-mail\s+Decision\n/)
    expect(stdout).toMatch(/\n(\d+)\s+\d{4}-\d\d-\d\d \d\d:\d\d\s+same network as the referrer\s+Ada Lovelace\s+ada@example.com\s+friend@example.com\s+held\n/)
    const credits = await local.db.query<{ referral_credits: number }>(`select referral_credits from public.waitlist where email = 'ada@example.com'`)
    expect(credits.rows).toEqual([{ referral_credits: 0 }])
  })

  it('--grant counts it, once: a second grant or a refusal changes nothing; an unknown id fails', async () => {
    const id = /\n(\d+)\s+\d{4}-/.exec((await runScript('waitlist-credits.ts', ['--held'], env())).stdout)![1]!
    expect((await runScript('waitlist-credits.ts', ['--grant', id], env())).stdout).toBe(
      `Granted credit ${id}: it now counts, and moves the referrer up like any other.\n`,
    )
    expect((await runScript('waitlist-credits.ts', ['--grant', id], env())).stdout).toBe(`Credit ${id} was already granted: nothing changed.\n`)
    expect((await runScript('waitlist-credits.ts', ['--refuse', id], env())).stdout).toBe(`Credit ${id} was already granted: nothing changed.\n`)
    const credits = await local.db.query<{ referral_credits: number }>(`select referral_credits from public.waitlist where email = 'ada@example.com'`)
    expect(credits.rows).toEqual([{ referral_credits: 1 }])
    expect((await runScript('waitlist-credits.ts', ['--held'], env())).stdout).toBe('No held referral credits.\n')
    expect((await runScript('waitlist-credits.ts', ['--held', '--all'], env())).stdout).toMatch(
      /same network as the referrer\s+Ada Lovelace\s+ada@example.com\s+friend@example.com\s+granted\n/,
    )
    const unknown = await runScript('waitlist-credits.ts', ['--refuse', '999999'], env()).catch(failure)
    expect(unknown).toMatchObject({ code: 1, stdout: 'No held credit 999999.\n' })
  })

  it('refuses unclear arguments with the usage (exit 2)', async () => {
    for (const args of [[], ['--grant'], ['--grant', 'x'], ['--grant', '0'], ['--grant', '1', '--refuse', '1'], ['--held', '--grant', '1'], ['--nope']]) {
      const refused = await runScript('waitlist-credits.ts', args, env()).catch(failure)
      expect(refused, args.join(' ')).toMatchObject({ code: 2 })
      expect((refused as { stderr: string }).stderr, args.join(' ')).toContain('Usage: npm run waitlist:credits')
    }
  })
})

describe('tools/owner/waitlist-export.ts', () => {
  it('writes the list as RFC 4180 CSV with formulas neutralised', async () => {
    const { stdout } = await runScript('waitlist-export.ts', [], { NEXT_PUBLIC_SUPABASE_URL: local.url })
    const lines = stdout.split('\r\n')
    expect(lines[0]).toBe(
      'created_at,status,confirmed_at,invited_at,joined_at,name,email,project,utm_source,utm_medium,utm_campaign,referrer_host,landing_path,flag,referral_credits,referred_by,updates,updates_opted_in_at,updates_stopped_at,language,earlier_answers',
    )
    expect(lines[1]).toMatch(
      /^\d{4}-\d\d-\d\dT[^,]+,confirmed,\d{4}-\d\d-\d\dT[^,]+,,,Ada Lovelace,ada@example.com,"Engines, Ltd.",newsletter,email,launch,news.example,\/pricing,,1,,false,,,en,$/,
    )
    expect(lines[2]).toMatch(/,pending,,,,"'=HYPERLINK\(""http:\/\/evil.example"",""click""\)",eve@example.com,,,,,,,,0,,false,,,en,$/)
    expect(lines[5]).toMatch(/,confirmed,[^,]+,,,Friend,friend@example.com,,,,,,,,0,ada@example.com,false,,,en,$/)
    expect(lines).toHaveLength(7) // header, five entries, and the empty string after the final CRLF
    // After a semicolon and after a line break inside the cell, too.
    expect(stdout).toContain(`"Acme;'=HYPERLINK(""http://evil.example"")\n'@SUM(A1)"`)
  })

  it('escapes escape, bell, CSI and bidi characters on stdout', async () => {
    const { stdout } = await runScript('waitlist-export.ts', [], { NEXT_PUBLIC_SUPABASE_URL: local.url })
    expect(stdout).not.toMatch(/[\u0000-\u0008\u000B\u000C\u000E-\u001F\u007F-\u009F\u200E\u200F\u202A-\u202E\u2066-\u2069]/)
    expect(stdout).toContain('Terminal \\x1b[31mred\\x1b[0m\\x07')
    expect(stdout).toContain('evil\\u{202e}txt.exe')
  })

  it('writes to a file, readable by the owner only', async () => {
    const file = path.join(workDir, 'waitlist.csv')
    const { stderr } = await runScript('waitlist-export.ts', ['--bom', file], { NEXT_PUBLIC_SUPABASE_URL: local.url })
    expect(stderr).toContain('Wrote 5 entries')
    const csv = await readFile(file, 'utf8')
    expect(csv.startsWith('\uFEFFcreated_at,status,confirmed_at,invited_at,joined_at,name,')).toBe(true)
    expect((await stat(file)).mode & 0o777).toBe(0o600)
  })

  it('refuses to overwrite a file without --force; with it, the file becomes owner-only', async () => {
    const file = path.join(workDir, 'existing.csv')
    await writeFile(file, 'keep me')
    await chmod(file, 0o644)
    const refused = await runScript('waitlist-export.ts', [file], { NEXT_PUBLIC_SUPABASE_URL: local.url }).catch(
      (failure: { code: number; stderr: string }) => failure,
    )
    expect(refused).toMatchObject({ code: 1 })
    expect((refused as { stderr: string }).stderr).toContain('--force')
    expect(await readFile(file, 'utf8')).toBe('keep me')

    await runScript('waitlist-export.ts', ['--force', file], { NEXT_PUBLIC_SUPABASE_URL: local.url })
    expect(await readFile(file, 'utf8')).toMatch(/^created_at,status,confirmed_at,invited_at,joined_at,name,email,project,/)
    expect((await stat(file)).mode & 0o777).toBe(0o600)
  })
})

describe('tools/owner/waitlist-list.ts', () => {
  it('prints a table with control characters escaped', async () => {
    const { stdout } = await runScript('waitlist-list.ts', [], {
      NEXT_PUBLIC_SUPABASE_URL: local.url,
      SUPABASE_SERVICE_ROLE_KEY: local.serviceRoleKey,
    })
    expect(stdout).toMatch(
      /^#\s+Signed up \(UTC\)\s+Status\s+Confirmed \(UTC\)\s+Invited \(UTC\)\s+Joined \(UTC\)\s+Name\s+Email\s+Project\s+Source\s+Referrals\s+Referred by\s+Flag\n/,
    )
    expect(stdout).toMatch(
      /confirmed\s+\d{4}-\d\d-\d\d \d\d:\d\d\s+Ada Lovelace\s+ada@example.com\s+Engines, Ltd.\s+campaign newsletter \/ email \/ launch, from news.example, landed on \/pricing\s+1\n/,
    )
    expect(stdout).toMatch(/Friend\s+friend@example.com\s+0\s+ada@example.com\n/)
    expect(stdout).toMatch(/pending\s+=HYPERLINK/)
    expect(stdout).toContain('Terminal \\x1b[31mred\\x1b[0m\\x07')
    expect(stdout).toContain('evil\\u{202e}txt.exe')
    expect(stdout).not.toMatch(/[\u0000-\u0009\u000B-\u001F\u007F-\u009F\u200E\u200F\u202A-\u202E\u2066-\u2069]/)
    expect(stdout).toMatch(/\n5 entries \(2 confirmed, 3 pending\)\n$/)
  })

  it('says how to start the double when nothing listens', async () => {
    const error = await runScript('waitlist-list.ts', [], { NEXT_PUBLIC_SUPABASE_URL: 'http://127.0.0.1:9' }).catch(
      (failure: { code: number; stderr: string }) => failure,
    )
    expect(error).toMatchObject({ code: 1 })
    expect((error as { stderr: string }).stderr).toContain('tools/supabase-local/main.ts')
  })
})

describe('tools/owner/waitlist-stats.ts', () => {
  it('prints the total, the confirmed count, the top referrers and sign-ups per day', async () => {
    const { stdout } = await runScript('waitlist-stats.ts', [], { NEXT_PUBLIC_SUPABASE_URL: local.url })
    const today = new Date().toISOString().slice(0, 10)
    expect(stdout).toMatch(/^Total: 5\nConfirmed: 2\nPending: 3\n/)
    expect(stdout).toMatch(/Top referrers \(confirmed referrals\)\n#\s+Email\s+Name\s+Referrals\n[- ]+\n1\s+ada@example.com\s+Ada Lovelace\s+1\n/)
    expect(stdout).toMatch(new RegExp(`Sign-ups per day \\(UTC; still in the list\\)\\nDay\\s+Joined\\s+Confirmed\\n[- ]+\\n${today}\\s+5\\s+2\\n$`))
  })
})

describe('resolveOwnerConfig', () => {
  it('uses the local double and its demo service key by default', () => {
    expect(resolveOwnerConfig({})).toEqual({ url: LOCAL_SUPABASE_URL, serviceRoleKey: LOCAL_SERVICE_ROLE_KEY, local: true })
  })

  it('uses the environment when both variables are set', () => {
    expect(resolveOwnerConfig({ NEXT_PUBLIC_SUPABASE_URL: 'https://abc.supabase.co', SUPABASE_SERVICE_ROLE_KEY: 'secret' })).toEqual({
      url: 'https://abc.supabase.co',
      serviceRoleKey: 'secret',
      local: false,
    })
  })

  it('never guesses a key for a hosted project', () => {
    expect(() => resolveOwnerConfig({ NEXT_PUBLIC_SUPABASE_URL: 'https://abc.supabase.co' })).toThrow(/SUPABASE_SERVICE_ROLE_KEY/)
  })
})
