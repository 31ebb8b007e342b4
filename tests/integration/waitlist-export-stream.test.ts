/**
 * waitlist:export and waitlist:list a page at a time (tools/owner/owner.ts, writeWaitlistCsv and
 * writeWaitlistTable) against the local double: the CSV is byte for byte what the export wrote when
 * it read the whole list at once (the same rows read as it read them, through waitlistToCsv), at
 * any page size, with --bom and on the terminal; neither command reads ahead of what its output
 * has taken by more than LIST_CONCURRENCY pages, however many pages; and an export during which the
 * list changes (its page ends measured before) still writes each entry once, in order.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { WAITLIST_CSV_COLUMNS, waitlistToCsv, type WaitlistEntry } from '@/tools/owner/csv'
import { LIST_CONCURRENCY, ownerClient, terminalSafe, writeWaitlistCsv, writeWaitlistTable, type OwnerClient, type Sink } from '@/tools/owner/owner'
import { startLocalSupabase, type LocalSupabase } from '@/tools/supabase-local/server'

const ENTRIES = 23

let local: LocalSupabase
let client: OwnerClient

beforeAll(async () => {
  local = await startLocalSupabase({ port: 0 })
  client = ownerClient({ NEXT_PUBLIC_SUPABASE_URL: local.url, SUPABASE_SERVICE_ROLE_KEY: local.serviceRoleKey }).client
  // Stored rows as they come (no triggers): referrals, every status, several sharing a sign-up
  // time (the keyset's ties), hostile names, formula starts, quotes, line breaks and a bidi override
  // (names from before they had to be plain text: *_waitlist_abuse.sql keeps such rows, NOT VALID).
  await local.db.exec(`
    alter table public.waitlist drop constraint waitlist_name_plain, drop constraint waitlist_project_plain;
    set session_replication_role = replica;
    insert into public.waitlist (id, name, email, project, referral_code, status, created_at, confirmed_at, invited_at, joined_at,
                                 utm_source, utm_medium, utm_campaign, referrer_host, landing_path, referral_credits, referred_by, updates, updates_opted_in_at, language, flag)
    select ('00000000-0000-4000-8000-' || lpad(i::text, 12, '0'))::uuid,
           (array['Ada', '=HYPERLINK("http://evil.example")', E'Line\\nbreak, "quoted"', E'Terminal \\u001b[31mred\\u0007', E'evil\\u202Etxt.exe', '@SUM(A1)', 'Zoë'])[1 + i % 7] || ' ' || i,
           'p' || i || '@stream.test',
           (array['', 'Engines, Ltd.', E'Acme;=1+1\\n-2'])[1 + i % 3],
           'c' || lpad(i::text, 21, '0'),
           (array['pending', 'confirmed', 'invited', 'joined'])[1 + i % 4],
           now() - make_interval(mins => (i / 3) * 7),
           case when i % 4 <> 0 then now() - make_interval(mins => (i / 3) * 7 - 1) end,
           case when i % 4 in (2, 3) then now() end,
           case when i % 4 = 3 then now() end,
           case when i % 5 = 0 then 'news' end, case when i % 5 = 0 then 'email' end, case when i % 10 = 0 then 'launch' end,
           case when i % 6 = 0 then 'ref.example' end, case when i % 2 = 0 then '/pricing' end,
           i % 3,
           case when i > 3 and i % 3 = 0 then ('00000000-0000-4000-8000-' || lpad((i / 3)::text, 12, '0'))::uuid end,
           i % 2 = 0, case when i % 2 = 0 then now() end,
           (array['en', 'de'])[1 + i % 2],
           case when i % 9 = 0 then 'domain_burst' end
      from generate_series(1, ${ENTRIES}) as i;
    set session_replication_role = origin;
    alter table public.waitlist
      add constraint waitlist_name_plain check (waitlist_rules.plain_text(name)) not valid,
      add constraint waitlist_project_plain check (waitlist_rules.plain_text(project)) not valid;
  `)
}, 180_000)

afterAll(async () => {
  await local?.close()
})

/** The list as the export read it before it streamed: every entry, oldest first, through the API's table read. */
async function wholeList(): Promise<WaitlistEntry[]> {
  const { data, error } = await client
    .from('waitlist')
    .select(['id', ...WAITLIST_CSV_COLUMNS].join(','))
    .order('created_at', { ascending: true })
    .order('id', { ascending: true })
    .range(0, 999)
  if (error) throw new Error(error.message)
  return data as unknown as WaitlistEntry[]
}

/** Collects what is written, and can hold each write until released (a slow disk or pipe). */
function recordingSink(onWrite: (chunk: string) => Promise<void> | void = () => {}): Sink & { text: () => string; chunks: string[] } {
  const chunks: string[] = []
  return {
    chunks,
    text: () => chunks.join(''),
    write: async (chunk) => {
      chunks.push(chunk)
      await onWrite(chunk)
    },
    end: async () => {},
  }
}

/** The client, counting the pages asked for; `before` runs before the nth page request is sent. */
function countingClient(before?: { call: number; run: () => Promise<unknown> }): { client: OwnerClient; calls: () => number } {
  let calls = 0
  const counted = new Proxy(client, {
    get(target, property, receiver) {
      if (property === 'rpc') {
        return (...args: Parameters<OwnerClient['rpc']>) => {
          if (args[0] !== 'waitlist_export_page') return target.rpc(...args)
          calls++
          if (calls !== before?.call) return target.rpc(...args)
          return before.run().then(() => target.rpc(...args))
        }
      }
      return Reflect.get(target, property, receiver) as unknown
    },
  })
  return { client: counted, calls: () => calls }
}

describe('the streamed export', () => {
  it('is byte for byte the CSV of the whole list, at any page size, with and without --bom', async () => {
    const entries = await wholeList()
    expect(entries).toHaveLength(ENTRIES)
    expect(entries.some((entry) => entry.referred_by !== null)).toBe(true)
    for (const bom of [false, true]) {
      const expected = waitlistToCsv(entries, { bom })
      for (const pageSize of [1, 2, 5, ENTRIES, 5000]) {
        const sink = recordingSink()
        expect(await writeWaitlistCsv(client, sink, { bom, pageSize })).toBe(ENTRIES)
        expect(sink.text(), `page size ${pageSize}, bom ${bom}`).toBe(expected)
      }
    }
  })

  it('is terminal-safe on stdout exactly as before', async () => {
    const sink = recordingSink()
    await writeWaitlistCsv(client, sink, { escape: true, pageSize: 4 })
    expect(sink.text()).toBe(terminalSafe(waitlistToCsv(await wholeList()), { keepLayout: true }))
    expect(sink.text()).toContain('Terminal \\x1b[31mred\\x07')
  })

  it('asks for pages only as the ones before are written: never more than LIST_CONCURRENCY ahead', async () => {
    const { client: counted, calls } = countingClient()
    let written = 0
    const sink = recordingSink(async () => {
      // The header, then each page: by the time page k is written, pages up to k + LIST_CONCURRENCY may be asked for.
      expect(calls()).toBeLessThanOrEqual(written + LIST_CONCURRENCY)
      written++
      await new Promise((resolve) => setTimeout(resolve, 20))
      expect(calls()).toBeLessThanOrEqual(written + LIST_CONCURRENCY)
    })
    await writeWaitlistCsv(counted, sink, { pageSize: 2 })
    // The header and one write per page of 2 (the last page short: no empty page is asked for after it).
    expect(sink.chunks).toHaveLength(1 + Math.ceil(ENTRIES / 2))
    expect(calls()).toBe(Math.ceil(ENTRIES / 2))
    expect(LIST_CONCURRENCY).toBeGreaterThan(1)
  })
})

describe('the streamed list', () => {
  it('is the same table at any page size, each page asked for once a pass', async () => {
    const whole = recordingSink()
    await writeWaitlistTable(client, whole, 5000)
    const { client: counted, calls } = countingClient()
    let written = 0
    const paged = recordingSink(() => {
      written++
    })
    expect(await writeWaitlistTable(counted, paged, 3)).toBe(ENTRIES)
    expect(paged.text()).toBe(whole.text())
    expect(whole.text()).toMatch(
      new RegExp(`\\n${ENTRIES} entries \\(${ENTRIES - Math.floor(ENTRIES / 4)} confirmed, ${Math.floor(ENTRIES / 4)} pending\\)\\n$`),
    )
    // Two passes (the widths, then the lines) of ceil(23 / 3) = 8 pages each.
    expect(calls()).toBe(2 * Math.ceil(ENTRIES / 3))
    expect(written).toBe(1 + Math.ceil(ENTRIES / 3) + 1)
  })
})

describe('an export while the list changes', () => {
  it('writes each entry once, in order: the page ends were measured before entries were added, removed and squeezed in', async () => {
    // The ends of the pages of 2 are measured first; then, before the first page is even asked for,
    // three entries next to each other go (an end among them; nobody's referrer), five are squeezed between two ends (a range of more than a
    // page) and three sign up after the last one (the open range grows).
    const { client: counted, calls } = countingClient({
      call: 1,
      run: () =>
        local.db.exec(`
          delete from public.waitlist where id in ('00000000-0000-4000-8000-000000000009', '00000000-0000-4000-8000-000000000010',
                                                   '00000000-0000-4000-8000-000000000011');
          set session_replication_role = replica;
          insert into public.waitlist (id, name, email, project, referral_code, created_at)
          select ('00000000-0000-4000-9000-' || lpad(i::text, 12, '0'))::uuid, 'Squeezed ' || i, 'squeezed' || i || '@stream.test', '',
                 's' || lpad(i::text, 21, '0'),
                 (select created_at from public.waitlist where id = '00000000-0000-4000-8000-000000000013') + make_interval(secs => i)
            from generate_series(1, 5) as i;
          insert into public.waitlist (id, name, email, project, referral_code, created_at)
          select ('00000000-0000-4000-a000-' || lpad(i::text, 12, '0'))::uuid, 'Later ' || i, 'later' || i || '@stream.test', '',
                 'l' || lpad(i::text, 21, '0'), now() + make_interval(mins => i)
            from generate_series(1, 3) as i;
          set session_replication_role = origin;
        `),
    })
    const sink = recordingSink()
    const written = await writeWaitlistCsv(counted, sink, { pageSize: 2 })
    const after = await wholeList()
    expect(after).toHaveLength(ENTRIES - 3 + 5 + 3)
    expect(written).toBe(after.length)
    expect(sink.text()).toBe(waitlistToCsv(after))
    // The squeezed range and the grown open one each took a page more than their first.
    expect(calls()).toBeGreaterThan(Math.ceil(ENTRIES / 2))
  })
})
