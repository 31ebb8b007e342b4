-- The founders' reads: what the console (tools/owner/console/), waitlist:stats, waitlist:list and
-- waitlist:export ask the database for, so that none of them reads every entry into memory.
--
-- Guarantees:
--   * Each function is one call returning one small jsonb value (a page of the list is the one
--     that is not small, and its size is the caller's page_size), service_role only. A jsonb value
--     is one row, so the API's max_rows (1,000 rows of a set) never cuts it.
--   * The figures count the entries still in the list, exactly: they are plain count(*) over the
--     table, not estimates or maintained counters.
--   * Cost at a million entries (docs/waitlist.md, "The founders' reads"): waitlist_figures scans
--     the table once (hashed into fine groups, summed by sources, days and status) and reads the
--     top referrers from their own small index; waitlist_funnel counts by status; a page of the list
--     and the recent invitations read an index in order; the outbox backlog reads the due
--     messages' index.
--
-- TypeScript twins: tools/owner/owner.ts (figures, pages), tools/owner/console/figures.ts,
-- tools/owner/console/server.ts (backlog, recent invitations).

-- Keyset pages of the list, oldest first, and where they end (waitlist_export_page, waitlist_export_bounds): the order is (created_at, id).
create index waitlist_created_at_id on public.waitlist (created_at, id);

-- The console's "Invited and joined", newest invitation first. Only invited and joined entries are
-- in it, so a sign-up or a confirmation never writes to it.
create index waitlist_invited on public.waitlist (invited_at desc, created_at, id) where invited_at is not null;

-- Top referrers. Only entries with a counted credit are in it: a sign-up never writes to it.
create index waitlist_referrers on public.waitlist (referral_credits desc, created_at, id) where referral_credits > 0;

-- Signed up, confirmed, invited, joined: each step counts everyone who got at least that far.
create function public.waitlist_funnel()
returns jsonb
language sql
stable
security definer
set search_path = ''
as $$
  select pg_catalog.jsonb_build_object(
    'signedUp', count(*),
    'confirmed', count(*) filter (where w.status <> 'pending'),
    'invited', count(*) filter (where w.status in ('invited', 'joined')),
    'joined', count(*) filter (where w.status = 'joined')
  )
    from public.waitlist w
$$;

comment on function public.waitlist_funnel() is
  'The founders'' funnel: {signedUp, confirmed, invited, joined}, each step counting the entries that got at least that far. service_role only (the console, waitlist:list, waitlist:stats).';

revoke all on function public.waitlist_funnel() from public, anon, authenticated, service_role;
grant execute on function public.waitlist_funnel() to service_role;

-- The groups waitlist_figures hashes in its one scan, counted by ANALYZE: without them the planner
-- guesses a group per row (a day is a function of a unique timestamp) and sorts the million rows
-- once per grouping instead (10 s instead of 2.5 s measured here). Nothing is written per sign-up.
create statistics public.waitlist_figures_days on
  (date_bin('1 day', created_at, '2000-01-01 00:00:00+00')), (date_bin('1 day', confirmed_at, '2000-01-01 00:00:00+00'))
  from public.waitlist;

create statistics public.waitlist_figures_campaigns (ndistinct) on utm_source, utm_medium, utm_campaign from public.waitlist;

-- One scan of the list, each entry counted once into its fine group (campaign tags, referring
-- site, sign-up day, confirmation day, status: a hash lookup per entry, not one per grouping as
-- grouping sets over the table cost, 30 % less time at a million here), then the few fine groups
-- summed by campaign tags, by referring site, by sign-up day, by confirmation day (UTC days:
-- date_bin from a UTC midnight, cheaper per row than a time zone conversion) and by status, which
-- gives the funnel too: the console and waitlist:stats read the list once, not once more for
-- waitlist_funnel beside this scan on the same cores. Then the labels, worded as
-- components/waitlist/source.ts describeWaitlistSource words them, are made from the few groups,
-- and the source tables cut to the largest top_sources labelled groups plus one "others" sum. Ties
-- in code-point order (collate "C"), so a made-up tag cannot reorder the page by locale rules. jit
-- is off: compiling this query took longer than running it.
create function public.waitlist_figures(top_sources integer default 20, top_referrers integer default 10)
returns jsonb
language sql
stable
security definer
set search_path = ''
set jit = off
as $$
  with fine as (
    select w.utm_source, w.utm_medium, w.utm_campaign, w.referrer_host,
           pg_catalog.date_bin('1 day', w.created_at, '2000-01-01 00:00:00+00') as signup_day,
           pg_catalog.date_bin('1 day', w.confirmed_at, '2000-01-01 00:00:00+00') as confirm_day,
           w.status, count(*) as n
      from public.waitlist w
     group by 1, 2, 3, 4, 5, 6, 7
  ),
  tallies as (
    select grouping(f.utm_source, f.utm_medium, f.utm_campaign, f.referrer_host, f.signup_day, f.confirm_day) as grouped,
           f.utm_source, f.utm_medium, f.utm_campaign, f.referrer_host, f.signup_day, f.confirm_day, f.status,
           sum(f.n) as signed_up,
           coalesce(sum(f.n) filter (where f.status <> 'pending'), 0) as confirmed
      from fine f
     group by grouping sets (
       (f.utm_source, f.utm_medium, f.utm_campaign),
       (f.referrer_host),
       (f.signup_day),
       (f.confirm_day),
       (f.status)
     )
  ),
  -- grouping(): a bit per column left out of the set, so 7 = by campaign tags, 59 = by site,
  -- 61 = by sign-up day, 62 = by confirmation day, 63 (none of them) = by status.
  labelled as (
    select case t.grouped when 7 then 'campaigns' else 'sites' end as kind,
           case t.grouped
             when 7 then nullif('campaign ' operator(pg_catalog.||) pg_catalog.concat_ws(' / ', t.utm_source, t.utm_medium, t.utm_campaign), 'campaign ')
             else 'from ' operator(pg_catalog.||) t.referrer_host
           end as label,
           t.signed_up, t.confirmed
      from tallies t
     where t.grouped in (7, 59)
  ),
  sources as (
    -- Tags that differ only where a part is missing ("a", none, none and none, "a", none) share a label.
    select l.kind, l.label, sum(l.signed_up) as signed_up, sum(l.confirmed) as confirmed,
           pg_catalog.row_number() over (
             partition by l.kind, l.label is null
             order by sum(l.signed_up) desc, l.label collate "C"
           ) as rank
      from labelled l
     group by l.kind, l.label
  ),
  tables as (
    select s.kind, pg_catalog.jsonb_build_object(
             'top', coalesce(pg_catalog.jsonb_agg(pg_catalog.jsonb_build_object('label', s.label, 'signedUp', s.signed_up, 'confirmed', s.confirmed) order by s.rank)
                               filter (where s.label is not null and s.rank <= top_sources), '[]'::jsonb),
             'others', case when count(*) filter (where s.label is not null and s.rank > top_sources) > 0 then pg_catalog.jsonb_build_object(
                         'groups', count(*) filter (where s.label is not null and s.rank > top_sources),
                         'signedUp', sum(s.signed_up) filter (where s.label is not null and s.rank > top_sources),
                         'confirmed', sum(s.confirmed) filter (where s.label is not null and s.rank > top_sources)) end,
             'unrecorded', pg_catalog.jsonb_agg(pg_catalog.jsonb_build_object('label', null, 'signedUp', s.signed_up, 'confirmed', s.confirmed)) filter (where s.label is null) -> 0
           ) as source_table
      from sources s
     group by s.kind
  )
  select pg_catalog.jsonb_build_object(
    'funnel', (select pg_catalog.jsonb_build_object(
                        'signedUp', coalesce(sum(t.signed_up), 0),
                        'confirmed', coalesce(sum(t.signed_up) filter (where t.status <> 'pending'), 0),
                        'invited', coalesce(sum(t.signed_up) filter (where t.status in ('invited', 'joined')), 0),
                        'joined', coalesce(sum(t.signed_up) filter (where t.status = 'joined'), 0))
                 from tallies t where t.grouped = 63),
    'campaigns', (select t.source_table from tables t where t.kind = 'campaigns'),
    'sites', (select t.source_table from tables t where t.kind = 'sites'),
    'signupDays', coalesce((select pg_catalog.jsonb_agg(pg_catalog.jsonb_build_object(
                                     'day', pg_catalog.to_char(t.signup_day at time zone 'UTC', 'YYYY-MM-DD'), 'signedUp', t.signed_up, 'confirmed', t.confirmed
                                   ) order by t.signup_day)
                              from tallies t where t.grouped = 61), '[]'::jsonb),
    'confirmationDays', coalesce((select pg_catalog.jsonb_agg(pg_catalog.jsonb_build_object(
                                           'day', pg_catalog.to_char(t.confirm_day at time zone 'UTC', 'YYYY-MM-DD'), 'confirmed', t.signed_up
                                         ) order by t.confirm_day)
                                    from tallies t where t.grouped = 62 and t.confirm_day is not null), '[]'::jsonb),
    'referrers', coalesce((select pg_catalog.jsonb_agg(pg_catalog.jsonb_build_object('name', r.name, 'email', r.email, 'referral_credits', r.referral_credits)
                                                       order by r.referral_credits desc, r.created_at, r.id)
                             from (select w.name, w.email, w.referral_credits, w.created_at, w.id
                                     from public.waitlist w
                                    where w.referral_credits > 0
                                    order by w.referral_credits desc, w.created_at, w.id
                                    limit top_referrers) r), '[]'::jsonb)
  )
$$;

comment on function public.waitlist_figures(integer, integer) is
  'The founders'' figures in one scan: the funnel (as waitlist_funnel counts it), sources by campaign and by referring site (the top_sources largest, the rest summed as others, the unrecorded), sign-ups and their confirmations by sign-up day (UTC), confirmations by confirmation day (UTC), and the top_referrers entries with the most counted credits. service_role only (the console, waitlist:stats).';

revoke all on function public.waitlist_figures(integer, integer) from public, anon, authenticated, service_role;
grant execute on function public.waitlist_figures(integer, integer) to service_role;

-- The arguments waitlist_export_page and waitlist_export_bounds share, refused alike.
create function private.waitlist_export_arguments(after_created_at timestamptz, after_id uuid, page_size integer)
returns void
language plpgsql
immutable
set search_path = ''
as $$
begin
  if page_size is null or page_size < 1 or page_size > 50000 then
    raise exception 'page_size must be between 1 and 50000' using errcode = '22023';
  end if;
  if (after_created_at is null) <> (after_id is null) then
    raise exception 'after_created_at and after_id go together' using errcode = '22023';
  end if;
end
$$;

revoke all on function private.waitlist_export_arguments(timestamptz, uuid, integer) from public, anon, authenticated, service_role;

-- A page of the list in (created_at, id) order after the given entry (null: from the start) and
-- up to and including upto_* (null: to the end), for waitlist:list and waitlist:export. Each entry
-- is an array of its values in the order of LISTED_FIELDS (tools/owner/owner.ts), its referrer's
-- e-mail after referred_by: half the bytes of objects, and json (text built once) rather than
-- jsonb, which is slower to build: 5,000 entries in about 70 ms here instead of 200 ms. Both ends
-- are row comparisons with no OR and no null test, so a plan made once for any arguments still
-- reads the index from the lower key and stops at the upper one.
create function public.waitlist_export_page(
  after_created_at timestamptz default null,
  after_id uuid default null,
  page_size integer default 5000,
  upto_created_at timestamptz default null,
  upto_id uuid default null
)
returns json
language plpgsql
stable
security definer
set search_path = ''
as $$
declare
  any_tasks boolean := exists (select 1 from private.waitlist_task_answers);
  -- The flag names a suppressed address (21_deliverability.sql); with none suppressed, no row is hashed.
  any_suppressed boolean := exists (select 1 from private.waitlist_suppressions);
begin
  perform private.waitlist_export_arguments(after_created_at, after_id, page_size);
  if (upto_created_at is null) <> (upto_id is null) then
    raise exception 'upto_created_at and upto_id go together' using errcode = '22023';
  end if;
  return coalesce((
    with page as (
      select w.*
        from public.waitlist w
       where (w.created_at, w.id) > (coalesce(after_created_at, '-infinity'), coalesce(after_id, '00000000-0000-0000-0000-000000000000'))
         and (w.created_at, w.id) <= (coalesce(upto_created_at, 'infinity'), coalesce(upto_id, 'ffffffff-ffff-ffff-ffff-ffffffffffff'))
       order by w.created_at, w.id
       limit page_size
    ),
    -- The research tasks the page's people answered (19_tasks.sql), read for the whole page at once
    -- (a function call per entry made the export of a million twice as slow), and only once anyone
    -- answered one.
    answered as (
      select a.entry_id, pg_catalog.jsonb_object_agg(a.task, private.waitlist_task_answer_json(a)) as tasks
        from private.waitlist_task_answers a
       where any_tasks and a.entry_id in (select page.id from page)
       group by a.entry_id
    )
    select pg_catalog.json_agg(pg_catalog.json_build_array(
             p.id, p.created_at, p.status, p.confirmed_at, p.invited_at, p.joined_at, p.name, p.email, p.project,
             p.utm_source, p.utm_medium, p.utm_campaign, p.referrer_host, p.landing_path,
             case when any_suppressed then nullif(pg_catalog.concat_ws(';', p.flag, (
               select 'suppressed:' || s.reason from private.waitlist_suppressions s
                where s.mailbox_hash = private.waitlist_mailbox_hash('suppress', p.email)
             )), '') else p.flag end,
             p.referral_credits, p.referred_by, r.email, p.updates, p.updates_opted_in_at, p.updates_stopped_at, p.language, p.answers,
             -- Only a referrer can have earned a rung (18_rewards.sql): everyone else's is not looked up.
             case when p.referral_credits > 0 then (
               select pg_catalog.string_agg(e.rung || ':' || e.status, ';' order by e.earned_at, e.rung)
                 from private.waitlist_rewards_earned e where e.entry_id = p.id
             ) end,
             t.tasks
           ) order by p.created_at, p.id)
      from page p
      left join public.waitlist r on r.id = p.referred_by
      left join answered t on t.entry_id = p.id
  ), '[]'::json);
end
$$;

comment on function public.waitlist_export_page(timestamptz, uuid, integer, timestamptz, uuid) is
  'Up to page_size entries (1 to 50,000) after (after_created_at, after_id) and up to and including (upto_created_at, upto_id), oldest first, as one json array of arrays (id, created_at, status, confirmed_at, invited_at, joined_at, name, email, project, utm_source, utm_medium, utm_campaign, referrer_host, landing_path, flag, referral_credits, referred_by, the referrer''s email, updates, updates_opted_in_at, updates_stopped_at, language, answers, the rewards earned as "rung:status;…" or null, the research tasks answered as {task: {title, answers, places, completed_at, revoked_at}} or null): keyset pages of the whole list for waitlist:list and waitlist:export. service_role only.';

revoke all on function public.waitlist_export_page(timestamptz, uuid, integer, timestamptz, uuid) from public, anon, authenticated, service_role;
grant execute on function public.waitlist_export_page(timestamptz, uuid, integer, timestamptz, uuid) to service_role;

-- Where the next pages end: the key (created_at, id) of the page_size-th entry after the given one
-- (null: from the start), of the 2 * page_size-th, and so on, at most `pages` of them. With them
-- waitlist:export asks for several pages at once, each between two keys, instead of one after the
-- other: the database builds a page's json on one core. A call reads at most page_size * pages
-- keys of the index (and no row), however long the list.
create function public.waitlist_export_bounds(
  after_created_at timestamptz default null,
  after_id uuid default null,
  page_size integer default 5000,
  pages integer default 40
)
returns json
language plpgsql
stable
security definer
set search_path = ''
as $$
begin
  perform private.waitlist_export_arguments(after_created_at, after_id, page_size);
  if pages is null or pages < 1 or pages > 1000 then
    raise exception 'pages must be between 1 and 1000' using errcode = '22023';
  end if;
  return coalesce((
    select pg_catalog.json_agg(pg_catalog.json_build_array(k.created_at, k.id) order by k.n)
      from (select s.created_at, s.id, pg_catalog.row_number() over (order by s.created_at, s.id) as n
              from (select w.created_at, w.id
                      from public.waitlist w
                     where (w.created_at, w.id) > (coalesce(after_created_at, '-infinity'), coalesce(after_id, '00000000-0000-0000-0000-000000000000'))
                     order by w.created_at, w.id
                     limit page_size::bigint * pages) s) k
     where k.n % page_size = 0
  ), '[]'::json);
end
$$;

comment on function public.waitlist_export_bounds(timestamptz, uuid, integer, integer) is
  'The keys [created_at, id] of the page_size-th, 2 * page_size-th, ... entry after (after_created_at, after_id), oldest first, at most pages (1 to 1,000) of them: where the next pages of waitlist_export_page end, so waitlist:export can ask for several at once. service_role only.';

revoke all on function public.waitlist_export_bounds(timestamptz, uuid, integer, integer) from public, anon, authenticated, service_role;
grant execute on function public.waitlist_export_bounds(timestamptz, uuid, integer, integer) to service_role;

-- The latest invitations, newest first (ties: the earlier sign-up first), for the console.
create function public.waitlist_recent_invitations(n integer default 20)
returns jsonb
language sql
stable
security definer
set search_path = ''
as $$
  select coalesce(pg_catalog.jsonb_agg(pg_catalog.jsonb_build_object(
           'status', i.status, 'name', i.name, 'email', i.email, 'invited_at', i.invited_at, 'joined_at', i.joined_at
         ) order by i.invited_at desc, i.created_at, i.id), '[]'::jsonb)
    from (select w.status, w.name, w.email, w.invited_at, w.joined_at, w.created_at, w.id
            from public.waitlist w
           where w.invited_at is not null
           order by w.invited_at desc, w.created_at, w.id
           limit least(greatest(n, 0), 1000)) i
$$;

comment on function public.waitlist_recent_invitations(integer) is
  'The n (at most 1,000) entries invited most recently, newest first: status, name, email, invited_at, joined_at. service_role only (the console).';

revoke all on function public.waitlist_recent_invitations(integer) from public, anon, authenticated, service_role;
grant execute on function public.waitlist_recent_invitations(integer) to service_role;

-- How far behind the e-mails are: how many wait to be sent, how many of them are due, and since
-- when the oldest due one has been (the hourly cap leaves due e-mails pending, available_at kept).
create function public.waitlist_outbox_backlog()
returns jsonb
language sql
stable
security definer
set search_path = ''
as $$
  select pg_catalog.jsonb_build_object(
    'queued', count(*),
    'due', count(*) filter (where o.available_at <= pg_catalog.now()),
    'oldest_due_at', min(o.available_at) filter (where o.available_at <= pg_catalog.now()),
    'waited_seconds', floor(extract(epoch from pg_catalog.now() - min(o.available_at) filter (where o.available_at <= pg_catalog.now())))
  )
    from public.waitlist_outbox o
   where o.status = 'pending' and o.kind like '%\_email'
$$;

comment on function public.waitlist_outbox_backlog() is
  'The outbox''s e-mails waiting to be sent: {queued, due, oldest_due_at, waited_seconds} (waited: since the oldest due e-mail became due; null when none is due). service_role only (the console).';

revoke all on function public.waitlist_outbox_backlog() from public, anon, authenticated, service_role;
grant execute on function public.waitlist_outbox_backlog() to service_role;
