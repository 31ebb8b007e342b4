-- The console's first byte at a million entries (issue #51).
--   * waitlist_figures counts the funnel in its one scan (a grouping set by status), so the console
--     and waitlist:stats no longer scan the list a second time through waitlist_funnel; and it counts
--     each entry once into its fine group, then sums the few groups by each grouping, instead of
--     hashing every entry once per grouping.
--   * waitlist_experiment_results runs without JIT: compiling its plan took longer than running it
--     (1.5 s instead of 0.5 s at a million entries here).

create or replace function public.waitlist_figures(top_sources integer default 20, top_referrers integer default 10)
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

alter function public.waitlist_experiment_results() set jit = off;
