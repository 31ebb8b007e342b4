/**
 * The bulk path: a waitlist of any size in seconds, with every derived structure as the triggers
 * would have left it (docs/engineers.md, "Bench", "A big list for your own measurement").
 *
 * One insert … select from generate_series per table with the triggers off
 * (session_replication_role = replica, superuser only), then what the triggers would have written
 * is rebuilt from the rows: the referral ledger and each referrer's credits from the confirmed
 * referrals, the invitations of the invited and joined, and the line (its arrivals in order of
 * confirmation, keys and counts) by the line's own private.waitlist_line_rebuild(). checkLine then
 * holds the line's answers to the plain definition (./line-definition.ts). A list grows in steps
 * (`growList(owner, 10_000, 100_000)` adds entries 10,001 to 100,000), so one build serves every
 * size of a run.
 *
 * The mix, by entry number i (deterministic apart from whom each referral points at):
 *   status: 10 % pending, 7 % invited, 3 % joined, the rest confirmed; every third entry from the
 *   eleventh came through the referral link of an earlier one, skewed to the early ones (a few
 *   referrers with many); six sources and a direct share; two languages; a quarter asked for
 *   updates; sign-ups spread over a week per step, confirmations minutes to a day after; every
 *   fourth entry has its confirmation e-mail (sent) in the outbox and every fourth confirmed one
 *   its Slack message; the questions at sign-up (BENCH_QUESTIONS) answered: a tenth product
 *   managers, three tenths founders, the rest with no answer (signed up before the questions).
 *   Pending entries expire a week from the build, so none is purged mid-run.
 */
import type pg from 'pg'
import { LINE_DEFINITION } from './line-definition'
import type { PublishedQuestion } from '../../../sanity/questions/rules'

/** The questions at sign-up the bench's list answers, as the site's server publishes them. */
export const BENCH_QUESTIONS: PublishedQuestion[] = [
  {
    key: 'role',
    kind: 'one',
    required: false,
    labels: { en: 'What is your role?' },
    options: [
      { key: 'product-manager', labels: { en: 'Product manager' } },
      { key: 'founder', labels: { en: 'Founder' } },
    ],
  },
]

/** A stored answer to the bench's question, as the waitlist_answers trigger writes it. */
function storedAnswer(option: string): string {
  const role = BENCH_QUESTIONS[0]!
  const label = role.options.find((candidate) => candidate.key === option)!.labels.en
  return JSON.stringify({ role: { question: role.labels.en, kind: role.kind, options: [option], labels: [label] } })
}

/** The entry numbered `i` in the bulk list: its id and e-mail, for the bench's samples. */
export const bulkId = (i: number) => `md5('bench entry ' || ${i})::uuid`

function growSql(from: number, to: number, start: Date): string {
  if (!Number.isSafeInteger(from) || !Number.isSafeInteger(to) || from < 0 || to <= from) throw new Error(`Cannot grow the list from ${from} to ${to}`)
  const numbers = `generate_series(${from + 1}::bigint, ${to}::bigint)`
  return `
insert into public.waitlist (
  id, name, email, project, created_at, status, confirmed_at, confirm_by, utm_source, utm_medium, utm_campaign,
  referrer_host, landing_path, referral_code, referred_by, invited_at, joined_at, updates, updates_opted_in_at, language, answers
)
select md5('bench entry ' || g.i)::uuid,
       'Person ' || g.i,
       'person' || g.i || '@' || (array['gmail.com', 'example.org', 'acme.io', 'outlook.com', 'studio.dev'])[1 + g.i % 5],
       case when g.i % 3 = 0 then 'Project ' || g.i else '' end,
       g.created_at,
       g.status,
       case when g.status <> 'pending' then g.created_at + (g.i % 1440) * interval '1 minute' end,
       case when g.status = 'pending' then now() + interval '7 days' end,
       (array[null, 'twitter', 'newsletter', 'hn', 'linkedin', 'producthunt', 'google'])[1 + g.i % 7],
       case when g.i % 7 in (2, 5) then 'email' when g.i % 7 <> 0 then 'social' end,
       case when g.i % 7 <> 0 then 'launch' end,
       (array[null, 'news.ycombinator.com', 'www.google.com', 't.co'])[1 + g.i % 4],
       (array['/', '/waitlist', '/blog/launch', '/de'])[1 + g.i % 4],
       rtrim(translate(encode(decode(md5('bench code ' || g.i), 'hex'), 'base64'), '+/', '-_'), '='),
       case when g.i % 3 = 0 and g.i > 10 then md5('bench entry ' || (1 + floor((g.i - 1) * random() ^ 3))::bigint)::uuid end,
       case when g.status in ('invited', 'joined') then now() - interval '1 day' end,
       case when g.status = 'joined' then now() - interval '12 hours' end,
       g.i % 4 = 0,
       case when g.i % 4 = 0 then g.created_at end,
       case when g.i % 5 = 0 then 'de' else 'en' end,
       case when g.i % 10 = 0 then '${storedAnswer('product-manager')}'::jsonb when g.i % 10 < 4 then '${storedAnswer('founder')}'::jsonb else '{}'::jsonb end
  from (select i, '${start.toISOString()}'::timestamptz + (i - ${from}) * (interval '7 days' / ${to - from}) as created_at,
               case when i % 100 < 10 then 'pending' when i % 100 < 17 then 'invited' when i % 100 < 20 then 'joined' else 'confirmed' end as status
          from ${numbers} i) g;

-- The foreign key is not checked with the triggers off: a referrer who left meanwhile (the bench
-- erases people between sizes) is no referrer, as "on delete set null" would have left it.
update public.waitlist w set referred_by = null
 where w.id in (select md5('bench entry ' || i)::uuid from ${numbers} i)
   and w.referred_by is not null and not exists (select 1 from public.waitlist r where r.id = w.referred_by);

-- What waitlist_referral_credit would have written for these confirmations: one ledger row per
-- referred mailbox, and each referrer's credits counted from the ledger (nothing held).
insert into private.waitlist_referral_ledger (referrer_id, mailbox_hash, referred_id, credited_at)
select w.referred_by, private.waitlist_mailbox_hash('referral ' || w.referred_by::text, w.email), w.id, w.confirmed_at
  from public.waitlist w
 where w.id in (select md5('bench entry ' || i)::uuid from ${numbers} i)
   and w.referred_by is not null and w.status <> 'pending'
on conflict do nothing;

update public.waitlist w set referral_credits = c.credits
  from (select l.referrer_id, count(*)::int as credits from private.waitlist_referral_ledger l group by 1) c
 where w.id = c.referrer_id and w.referral_credits <> c.credits;

-- The invitations of the invited (open) and the joined (redeemed), as waitlist_enqueue_messages writes them.
insert into private.waitlist_invitations (entry_id, invited_at, expires_at, redeemed_at)
select w.id, w.invited_at, w.invited_at + s.invitation_ttl, w.joined_at
  from public.waitlist w cross join private.waitlist_invitation_settings s
 where w.id in (select md5('bench entry ' || i)::uuid from ${numbers} i)
   and w.status in ('invited', 'joined');

-- Some history in the outbox: sent confirmation e-mails, and Slack's word of confirmations.
insert into public.waitlist_outbox (entry_id, kind, status, created_at, sent_at, attempts, counted, payload)
select w.id, m.kind, 'sent', w.created_at, w.created_at + interval '1 minute', 1, m.kind = 'confirmation_email',
       case when m.kind = 'slack_confirmed' then jsonb_build_object('total', 0) else '{}'::jsonb end
  from ${numbers} i
  join public.waitlist w on w.id = md5('bench entry ' || i)::uuid
 cross join lateral (values ('confirmation_email'), ('slack_confirmed')) m (kind)
 where i % 4 = 0 and (m.kind = 'confirmation_email' or w.status <> 'pending');
`
}

/**
 * Adds entries `from`+1 … `to` (their sign-ups over the week after `start`), then rebuilds the
 * line. The triggers are off only on this connection and only while the rows go in.
 */
export async function growList(owner: pg.Client, from: number, to: number, start: Date): Promise<void> {
  await owner.query('begin')
  try {
    await owner.query('set local session_replication_role = replica')
    for (const statement of growSql(from, to, start).split(/;\n\n/)) await owner.query(statement)
    await owner.query('set local session_replication_role = origin')
    await owner.query('select private.waitlist_line_rebuild()')
    await owner.query('commit')
  } catch (error) {
    await owner.query('rollback').catch(() => {})
    throw error
  }
  await owner.query(
    'vacuum analyze public.waitlist, private.waitlist_line, private.waitlist_line_counts, public.waitlist_outbox, private.waitlist_referral_ledger, private.waitlist_invitations',
  )
}

export interface LineCheck {
  ok: boolean
  checked: number
  problems: string[]
}

/**
 * The line's answers against the plain definition: the places of `sample` random entries (every
 * status), the head of the line (first 100) and both totals; and no referral pointing at an entry
 * that is gone (the foreign key the bulk path bypasses). Any difference fails the bench.
 */
export async function checkLine(owner: pg.Client, sample = 500): Promise<LineCheck> {
  const problems: string[] = []
  await owner.query('begin isolation level repeatable read')
  try {
    const { rows: definition } = await owner.query<{ id: string; place: string }>(`select d.id, d.place from (${LINE_DEFINITION}) d order by d.place limit 100`)
    const { rows: compared } = await owner.query<{ id: string; expected: string | null; shown: string | null }>(
      `with s as (select id from public.waitlist order by random() limit $1)
       select s.id, d.place::text as expected, private.waitlist_place(s.id)::text as shown
         from s left join (${LINE_DEFINITION}) d on d.id = s.id`,
      [sample],
    )
    for (const row of compared) if (row.expected !== row.shown) problems.push(`place of ${row.id}: ${row.shown} where the definition says ${row.expected}`)
    const { rows: head } = await owner.query<{ head: { id: string; place: number }[] }>('select public.waitlist_line_head(100) as head')
    const shownHead = (head[0]?.head ?? []).map((entry) => `${entry.place}:${entry.id}`).join(' ')
    const expectedHead = definition.map((row) => `${row.place}:${row.id}`).join(' ')
    if (shownHead !== expectedHead) problems.push('the head of the line differs from the definition')
    const { rows: totals } = await owner.query<{ line: string; total: string; confirmed: string; on_list: string }>(`
      select private.waitlist_line_total('line')::text as line, private.waitlist_line_total('total')::text as total,
             (select count(*) from public.waitlist where status = 'confirmed')::text as confirmed,
             (select count(*) from public.waitlist where status <> 'pending')::text as on_list`)
    const { rows: dangling } = await owner.query<{ n: string }>(
      `select count(*)::text as n from public.waitlist w
        where w.referred_by is not null and not exists (select 1 from public.waitlist r where r.id = w.referred_by)`,
    )
    if (dangling[0]?.n !== '0') problems.push(`${dangling[0]?.n} entries are referred by an entry that is not on the list`)
    const t = totals[0]
    if (!t || t.line !== t.confirmed) problems.push(`the line's total ${t?.line} is not the ${t?.confirmed} confirmed`)
    if (!t || t.total !== t.on_list) problems.push(`the confirmed total ${t?.total} is not the ${t?.on_list} on the list`)
    return { ok: problems.length === 0, checked: compared.length, problems: problems.slice(0, 10) }
  } finally {
    await owner.query('commit')
  }
}
