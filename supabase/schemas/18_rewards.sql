-- Rewards for bringing friends (issue #68): the ladder the marketers publish, and what each person
-- earned on it.
--
-- Guarantees:
--   * The ladder (private.waitlist_reward_rungs) is Sanity's, copied on publish by
--     public.waitlist_replace_rewards and replaced as a whole: up to 8 rungs, ascending thresholds
--     of counted referral credits, each 'places' (N more places in the line) or 'perk' (granted at
--     once, or held for a founder's approval).
--   * A rung is earned once per person, ever (private.waitlist_rewards_earned, primary key (entry,
--     rung)): the moment a counted credit (public.waitlist.referral_credits: an unheld credit, or a
--     held one when a founder grants it, 05_line.sql) reaches its threshold, in the same statement.
--     A held credit earns nothing until it is granted, so the held-credit signals (disposable
--     domains, the referrer's network, bursts, the blocklist) hold the reward too. Concurrent
--     credits to one referrer are counted one after the other under the referrer's row lock, so
--     each crossing is seen once; the insert's conflict on the key makes a second earning of one
--     rung impossible whoever tries.
--   * A publish grants each rung to whoever already has its threshold and has not earned it (a
--     lowered threshold, or a new rung: the rung is 'owed'); a raised threshold or a removed rung
--     takes nothing back; the same ladder published again earns nothing. The first 2,000 grants go
--     with the publish, within the API's 8 s; the rest, 2,000 a run, with the dispatcher's runs
--     (private.waitlist_rewards_catch_up from waitlist_purge_pending): at a million entries a
--     first rung at 1 referral is 160,000 people, 40 s of writes in one statement. A publish and a credit never interleave: the
--     credit takes the ladder's lock shared (private.waitlist_rewards_steady) before its referrer's
--     row, the publish takes it alone, so a crossing is never missed between the two.
--   * What is earned is kept as it was earned (kind, places): a later ladder does not change it.
--     'places' moves the person up that many places more (public.waitlist.reward_places, in the
--     line's key: 05_line.sql), so the place shown and the order of invitations follow.
--   * Messages in the same transaction as the fact (07_outbox.sql): when a rung is earned, a
--     'reward.earned' webhook (its key, kind, status and places; the person read at send time, as
--     entry.confirmed) and a Slack line ('slack_reward'), held or not, so the founders hear of a
--     perk waiting for them; a 'reward_email' ({"rung"}) only when the rung is granted: at earning
--     for places and instant perks, at a founder's approval for a held one
--     (public.waitlist_decide_reward, once), never for a refused one. The e-mail is ranked with the
--     e-mails people wait for, counts against the hourly cap, carries the one-click unsubscribe and
--     goes with its person (erased, unsubscribed: on delete cascade), like an invitation. What a
--     publish grants (thousands at once) is bulk instead: its e-mails and webhooks carry
--     "ladder": true and are ranked last (private.waitlist_outbox_rank), and no Slack line goes
--     per person (the founders published it; the console counts them).
--   * The founders' reads are index reads, never a scan of the list: how many reached each rung
--     (the earned rows' (rung, status) index), the held perks oldest first, the last perks granted.
--   * The public key can read or write none of it: no grant on these tables, and every function
--     here is the service role's, save what waitlist_me and waitlist_export_me (08_own_data.sql)
--     show a token's holder.
--
-- TypeScript twins: components/waitlist/outbox/webhook.ts and slack.ts (the messages),
-- tools/owner/rewards.ts (the console's and the export's reads), tools/owner/segments.ts
-- (`--where rung=<key>`).

create table private.waitlist_reward_rungs (
  key text primary key check (key ~ '^[a-z][a-z0-9-]{0,39}$'),
  threshold integer not null unique check (threshold between 1 and 10000),
  kind text not null check (kind in ('places', 'perk')),
  places integer check (places between 1 and 1000000),
  approval text check (approval in ('instant', 'held')),
  owed boolean not null default false,

  constraint waitlist_reward_rungs_places check ((kind = 'places') = (places is not null)),
  constraint waitlist_reward_rungs_approval check ((kind = 'perk') = (approval is not null))
);

comment on table private.waitlist_reward_rungs is
  'The rewards ladder as published in Sanity (at most 8 rungs, by threshold of counted referral credits); replaced as a whole by public.waitlist_replace_rewards.';

comment on column private.waitlist_reward_rungs.owed is
  'Published new or with a lower threshold, and not yet granted to everyone who already reached it (private.waitlist_rewards_catch_up).';

revoke all on table private.waitlist_reward_rungs from public, anon, authenticated, service_role;

create table private.waitlist_rewards_earned (
  entry_id uuid not null references public.waitlist (id) on delete cascade,
  rung text not null,
  kind text not null check (kind in ('places', 'perk')),
  places integer,
  status text not null check (status in ('granted', 'held', 'refused')),
  earned_at timestamptz not null default now(),
  decided_at timestamptz,

  primary key (entry_id, rung),
  constraint waitlist_rewards_earned_places check ((kind = 'places') = (places is not null)),
  constraint waitlist_rewards_earned_decided check ((status = 'held') = (decided_at is null)),
  constraint waitlist_rewards_earned_held check (kind = 'perk' or status = 'granted')
);

comment on table private.waitlist_rewards_earned is
  'Each rung each person earned, once: its kind and places as they were when earned; granted (decided_at: when), held for a founder, or refused.';

comment on column private.waitlist_rewards_earned.decided_at is
  'When the rung was granted or refused: at earning for places and instant perks, at the founder''s decision for a held perk; null while held.';

-- The console's counts per rung: an index-only read of the earned rows, not of the list.
create index waitlist_rewards_earned_rung on private.waitlist_rewards_earned (rung, status);

create index waitlist_rewards_held on private.waitlist_rewards_earned (earned_at, entry_id, rung) where status = 'held';

create index waitlist_rewards_granted_perks on private.waitlist_rewards_earned (decided_at desc, entry_id, rung) where kind = 'perk' and status = 'granted';

revoke all on table private.waitlist_rewards_earned from public, anon, authenticated, service_role;

-- Shared by every credit, alone by a publish: see the header. Taken before any row of the list.
create function private.waitlist_rewards_steady()
returns void
language plpgsql
volatile
set search_path = ''
as $$
begin
  perform pg_catalog.pg_advisory_xact_lock_shared(pg_catalog.hashtext('waitlist rewards'));
end
$$;

revoke all on function private.waitlist_rewards_steady() from public, anon, authenticated, service_role;

-- The messages of rungs just earned or granted (p_entries and p_rungs side by side), as a few
-- inserts however many. `why`: 'credit' (a credit crossed the rung: the e-mail if granted, Slack,
-- the webhook), 'decision' (a founder approved a held perk: the e-mail), 'ladder' (a publish's
-- catch-up, thousands at once: the e-mail if granted and the webhook, both ranked as bulk by their
-- "ladder" key, so they never hold back a sign-up's link; no Slack line per person).
create function private.waitlist_rewards_announce(p_entries uuid[], p_rungs text[], why text)
returns void
language plpgsql
volatile
security definer
set search_path = ''
as $$
declare
  events uuid[];
  data jsonb[];
begin
  insert into public.waitlist_outbox (entry_id, kind, payload)
  select e.entry_id, 'reward_email',
         pg_catalog.jsonb_build_object('rung', e.rung) || case when why = 'ladder' then '{"ladder": true}'::jsonb else '{}'::jsonb end
    from rows from (pg_catalog.unnest(p_entries), pg_catalog.unnest(p_rungs)) n (entry, rung)
    join private.waitlist_rewards_earned e on e.entry_id = n.entry and e.rung = n.rung
   where e.status = 'granted';
  if why = 'decision' then
    return;
  end if;
  if why = 'credit' then
    insert into public.waitlist_outbox (entry_id, kind, payload)
    select e.entry_id, 'slack_reward', pg_catalog.jsonb_build_object('rung', e.rung, 'kind', e.kind, 'status', e.status)
      from rows from (pg_catalog.unnest(p_entries), pg_catalog.unnest(p_rungs)) n (entry, rung)
      join private.waitlist_rewards_earned e on e.entry_id = n.entry and e.rung = n.rung;
  end if;
  select pg_catalog.array_agg(e.entry_id order by e.entry_id, e.rung),
         pg_catalog.array_agg(pg_catalog.jsonb_build_object(
           'rung', e.rung, 'kind', e.kind, 'status', e.status, 'places', e.places, 'threshold', r.threshold
         ) order by e.entry_id, e.rung)
    into events, data
    from rows from (pg_catalog.unnest(p_entries), pg_catalog.unnest(p_rungs)) n (entry, rung)
    join private.waitlist_rewards_earned e on e.entry_id = n.entry and e.rung = n.rung
    left join private.waitlist_reward_rungs r on r.key = e.rung;
  if events is not null then
    perform private.waitlist_enqueue_webhooks('reward.earned', events, data);
    -- Marked after, as an import marks its own (16_imports.sql): the webhooks' one writer stays one.
    if why = 'ladder' then
      update public.waitlist_outbox o set payload = o.payload || '{"ladder": true}'::jsonb
       where o.entry_id = any (events) and o.kind = 'webhook' and o.status = 'pending'
         and o.payload ->> 'type' = 'reward.earned' and not o.payload ? 'ladder';
    end if;
  end if;
end
$$;

revoke all on function private.waitlist_rewards_announce(uuid[], text[], text) from public, anon, authenticated, service_role;

-- A counted credit's crossing, in the statement that counts it: the rungs between the old count
-- (exclusive) and the new (inclusive), earned now; their places added to the row being written,
-- so the line's trigger (waitlist_arrival) moves the person once. The referrer's row is already
-- locked by the update, so old is the count committed last.
create function private.waitlist_rewards()
returns trigger
language plpgsql
security definer
set search_path = ''
as $$
declare
  crossed text[];
  gained integer;
begin
  perform private.waitlist_rewards_steady();
  with earned as (
    insert into private.waitlist_rewards_earned (entry_id, rung, kind, places, status, decided_at)
    select new.id, r.key, r.kind, r.places,
           case when r.approval = 'held' then 'held' else 'granted' end,
           case when r.approval = 'held' then null else pg_catalog.now() end
      from private.waitlist_reward_rungs r
     where r.threshold > old.referral_credits and r.threshold <= new.referral_credits
    on conflict do nothing
    returning waitlist_rewards_earned.rung, waitlist_rewards_earned.places
  )
  select pg_catalog.array_agg(e.rung), coalesce(sum(e.places), 0) into crossed, gained from earned e;
  if crossed is not null then
    new.reward_places := new.reward_places + gained;
    perform private.waitlist_rewards_announce(pg_catalog.array_fill(new.id, array[pg_catalog.cardinality(crossed)]), crossed, 'credit');
  end if;
  return new;
end
$$;

revoke all on function private.waitlist_rewards() from public, anon, authenticated, service_role;

create trigger waitlist_rewards
  before update of referral_credits on public.waitlist
  for each row when (new.referral_credits > old.referral_credits)
  execute function private.waitlist_rewards();

-- Grants up to `budget` rungs owed since a publish (a new rung, a lowered threshold) to whoever
-- already reached them, lowest threshold first, and says how many; a rung found caught up is no
-- longer owed. Alone, as a publish: no credit crosses a rung meanwhile. The limit is written into
-- the statement, so that it is planned with it: the referrers index read from its top, each
-- entry's earned row looked up by key, never the list hashed. Called by the publish, then by every
-- dispatcher run (waitlist_purge_pending) until nothing is owed; a run with nothing owed reads one
-- row.
create function private.waitlist_rewards_catch_up(budget integer)
returns integer
language plpgsql
volatile
security definer
set search_path = ''
as $$
declare
  rung private.waitlist_reward_rungs;
  entries uuid[];
  caught integer;
  left_over integer := greatest(budget, 0);
begin
  if not exists (select 1 from private.waitlist_reward_rungs r where r.owed) then
    return 0;
  end if;
  perform pg_catalog.pg_advisory_xact_lock(pg_catalog.hashtext('waitlist rewards'));
  for rung in select * from private.waitlist_reward_rungs r where r.owed order by r.threshold loop
    exit when left_over <= 0;
    execute pg_catalog.format($grant$
      with earned as (
        insert into private.waitlist_rewards_earned (entry_id, rung, kind, places, status, decided_at)
        select w.id, $1, $2, $3, case when $4 = 'held' then 'held' else 'granted' end, case when $4 = 'held' then null else pg_catalog.now() end
          from public.waitlist w
         where w.referral_credits > 0 and w.referral_credits >= $5
           and not exists (select 1 from private.waitlist_rewards_earned e where e.entry_id = w.id and e.rung = $1)
         limit %s
        on conflict do nothing
        returning entry_id
      )
      select pg_catalog.array_agg(e.entry_id) from earned e$grant$, left_over)
      into entries
      using rung.key, rung.kind, rung.places, rung.approval, rung.threshold;
    caught := coalesce(pg_catalog.cardinality(entries), 0);
    if caught > 0 then
      if rung.kind = 'places' then
        update public.waitlist w set reward_places = w.reward_places + rung.places where w.id = any (entries);
      end if;
      perform private.waitlist_rewards_announce(entries, pg_catalog.array_fill(rung.key, array[caught]), 'ladder');
    end if;
    if caught < left_over then
      update private.waitlist_reward_rungs r set owed = false where r.key = rung.key;
    end if;
    left_over := left_over - caught;
  end loop;
  return greatest(budget, 0) - left_over;
end
$$;

revoke all on function private.waitlist_rewards_catch_up(integer) from public, anon, authenticated, service_role;

-- The ladder as Sanity publishes it: [{key, threshold, kind, places (places), approval (perk)}],
-- ascending. Replaced whole, then each rung granted to whoever already reached it (the list's
-- referrers index: only entries with a counted credit are read).
create function public.waitlist_replace_rewards(rungs jsonb)
returns integer
language plpgsql
volatile
security definer
set search_path = ''
as $$
declare
  previous jsonb;
  stored integer;
begin
  if rungs is null or pg_catalog.jsonb_typeof(rungs) <> 'array' or pg_catalog.jsonb_array_length(rungs) > 8 or exists (
    select 1
      from pg_catalog.jsonb_array_elements(rungs) x
     where pg_catalog.jsonb_typeof(x) <> 'object'
        or pg_catalog.jsonb_typeof(x -> 'key') is distinct from 'string'
        or (x ->> 'key') !~ '^[a-z][a-z0-9-]{0,39}$'
        or pg_catalog.jsonb_typeof(x -> 'threshold') is distinct from 'number'
        -- A case, not an or: a cast of a value the pattern refuses must never be tried.
        or case when (x ->> 'threshold') ~ '^[0-9]{1,5}$' then (x ->> 'threshold')::integer not between 1 and 10000 else true end
        or case x ->> 'kind'
             when 'places' then pg_catalog.jsonb_typeof(x -> 'places') is distinct from 'number'
                                or case when (x ->> 'places') ~ '^[0-9]{1,7}$' then (x ->> 'places')::integer not between 1 and 1000000 else true end
                                or coalesce(pg_catalog.jsonb_typeof(x -> 'approval'), 'null') <> 'null'
             when 'perk' then coalesce(x ->> 'approval', '') not in ('instant', 'held')
                              or coalesce(pg_catalog.jsonb_typeof(x -> 'places'), 'null') <> 'null'
             else true
           end
  ) then
    raise exception 'the ladder is at most 8 rungs, each {key, threshold 1 to 10000, kind places with places 1 to 1000000, or kind perk with approval instant or held}'
      using errcode = '22023';
  end if;
  if exists (
    select 1
      from pg_catalog.jsonb_array_elements(rungs) with ordinality a (x, n)
      join pg_catalog.jsonb_array_elements(rungs) with ordinality b (x, n) on b.n = a.n + 1
     where (b.x ->> 'threshold')::integer <= (a.x ->> 'threshold')::integer
  ) or (select pg_catalog.count(distinct x ->> 'key') from pg_catalog.jsonb_array_elements(rungs) x) <> pg_catalog.jsonb_array_length(rungs) then
    raise exception 'the ladder''s thresholds must ascend, each rung at a threshold and with a key of its own' using errcode = '22023';
  end if;
  -- Alone: no credit is counted meanwhile, and two publishes at once replace the ladder one after the other.
  perform pg_catalog.pg_advisory_xact_lock(pg_catalog.hashtext('waitlist rewards'));
  select pg_catalog.jsonb_object_agg(r.key, pg_catalog.jsonb_build_object('threshold', r.threshold, 'owed', r.owed))
    into previous from private.waitlist_reward_rungs r;
  delete from private.waitlist_reward_rungs;
  -- Owed to whoever already reached it: a new rung, one whose threshold came down, one not yet caught up.
  insert into private.waitlist_reward_rungs (key, threshold, kind, places, approval, owed)
  select x ->> 'key', (x ->> 'threshold')::integer, x ->> 'kind', (x ->> 'places')::integer, x ->> 'approval',
         coalesce((previous -> (x ->> 'key') ->> 'owed')::boolean
                  or (previous -> (x ->> 'key') ->> 'threshold')::integer > (x ->> 'threshold')::integer, true)
    from pg_catalog.jsonb_array_elements(rungs) x;
  get diagnostics stored = row_count;
  -- A small list is caught up at once; a long one within the API's time, then by the dispatcher's runs.
  perform private.waitlist_rewards_catch_up(2000);
  return stored;
end
$$;

comment on function public.waitlist_replace_rewards(jsonb) is
  'Replaces the rewards ladder ([{key, threshold, kind, places, approval}], ascending, at most 8) and grants each rung to whoever already reached it and had not earned it (the first 2,000 at once, the rest by the dispatcher''s runs); returns how many rungs are stored. service_role only: the site''s server calls it after each Sanity publish.';

revoke all on function public.waitlist_replace_rewards(jsonb) from public, anon, authenticated, service_role;
grant execute on function public.waitlist_replace_rewards(jsonb) to service_role;

-- A founder's decision on a held perk, once, as on a held credit (public.waitlist_decide_credit):
-- granted, its e-mail goes; refused, nothing does. A second decision changes nothing (`changed`
-- false), also when two arrive at once (the second waits for the first's row lock, then finds it
-- decided). Null for a rung the person has not earned.
create function public.waitlist_decide_reward(entry uuid, rung text, grant_reward boolean)
returns jsonb
language plpgsql
volatile
security definer
set search_path = ''
as $$
declare
  decided private.waitlist_rewards_earned;
begin
  if grant_reward is null then
    raise exception 'grant_reward must be true (grant) or false (refuse)' using errcode = '22004';
  end if;
  update private.waitlist_rewards_earned e
     set status = case when grant_reward then 'granted' else 'refused' end, decided_at = pg_catalog.now()
   where e.entry_id = waitlist_decide_reward.entry and e.rung = waitlist_decide_reward.rung and e.status = 'held'
  returning * into decided;
  if found then
    perform private.waitlist_rewards_announce(array[decided.entry_id], array[decided.rung], 'decision');
    return pg_catalog.jsonb_build_object('entry', decided.entry_id, 'rung', decided.rung, 'status', decided.status, 'changed', true);
  end if;
  select * into decided from private.waitlist_rewards_earned e
   where e.entry_id = waitlist_decide_reward.entry and e.rung = waitlist_decide_reward.rung;
  if not found then
    return null;
  end if;
  return pg_catalog.jsonb_build_object('entry', decided.entry_id, 'rung', decided.rung, 'status', decided.status, 'changed', false);
end
$$;

comment on function public.waitlist_decide_reward(uuid, text, boolean) is
  'For the owner''s commands (service role): grants (true) or refuses (false) the held perk `rung` of entry `entry`, once; answers {entry, rung, status, changed}, changed false when it was already decided (or never held); null when it was not earned.';

revoke all on function public.waitlist_decide_reward(uuid, text, boolean) from public, anon, authenticated, service_role;
grant execute on function public.waitlist_decide_reward(uuid, text, boolean) to service_role;

-- What a person's own page shows of their rewards (08_own_data.sql): granted and held, in the
-- order earned. A primary-key range.
create function private.waitlist_own_rewards(entry uuid)
returns jsonb
language plpgsql
stable
security definer
set search_path = ''
as $$
begin
  return (
    select coalesce(pg_catalog.jsonb_agg(pg_catalog.jsonb_build_object('rung', e.rung, 'status', e.status) order by e.earned_at, e.rung), '[]'::jsonb)
      from private.waitlist_rewards_earned e
     where e.entry_id = waitlist_own_rewards.entry and e.status in ('granted', 'held')
  );
end
$$;

revoke all on function private.waitlist_own_rewards(uuid) from public, anon, authenticated, service_role;

-- A segment's "@rung" (15_questions.sql): the entry was granted at least one of the rungs named.
-- True for a segment without one. A primary-key lookup per entry read.
create function private.waitlist_in_rungs(entry uuid, segment jsonb)
returns boolean
language plpgsql
stable
security definer
set search_path = ''
as $$
begin
  if not (segment ? '@rung') then
    return true;
  end if;
  return exists (
    select 1 from private.waitlist_rewards_earned e
     where e.entry_id = waitlist_in_rungs.entry and e.status = 'granted'
       and e.rung in (select pg_catalog.jsonb_array_elements_text(segment -> '@rung'))
  );
end
$$;

revoke all on function private.waitlist_in_rungs(uuid, jsonb) from public, anon, authenticated, service_role;

-- The founders' counts: each rung of the ladder in order, with how many reached it, and how many
-- of those were granted it, wait for a decision, or were refused; then rungs no longer on the
-- ladder that someone earned (threshold null). An index-only read of the earned rows.
create function public.waitlist_reward_counts()
returns jsonb
language sql
stable
security definer
set search_path = ''
as $$
  with counted as (
    select e.rung, count(*) as reached,
           count(*) filter (where e.status = 'granted') as granted,
           count(*) filter (where e.status = 'held') as held,
           count(*) filter (where e.status = 'refused') as refused
      from private.waitlist_rewards_earned e
     group by e.rung
  )
  select coalesce(pg_catalog.jsonb_agg(pg_catalog.jsonb_build_object(
           'rung', coalesce(r.key, c.rung), 'threshold', r.threshold, 'kind', r.kind, 'places', r.places, 'approval', r.approval,
           'reached', coalesce(c.reached, 0), 'granted', coalesce(c.granted, 0), 'held', coalesce(c.held, 0), 'refused', coalesce(c.refused, 0)
         ) order by r.threshold nulls last, coalesce(r.key, c.rung)), '[]'::jsonb)
    from private.waitlist_reward_rungs r
    full join counted c on c.rung = r.key
$$;

comment on function public.waitlist_reward_counts() is
  'For the owner''s console (service role): per rung (the ladder''s in order, then any earned rung since removed, threshold null), {rung, threshold, kind, places, approval, reached, granted, held, refused}.';

revoke all on function public.waitlist_reward_counts() from public, anon, authenticated, service_role;
grant execute on function public.waitlist_reward_counts() to service_role;

-- The held perks waiting for a founder, oldest first, with who earned them: the held rows' index.
-- The limit is written into the statement (as waitlist_line_head's): given as a parameter it is
-- planned as a tenth of the rows, which sorted every perk granted at a million entries (25 ms for 20).
-- Each person is read by their id, never the list hashed.
create function public.waitlist_held_rewards(max_rows integer default 50)
returns jsonb
language plpgsql
stable
security definer
set search_path = ''
as $$
declare
  held jsonb;
begin
  execute pg_catalog.format($held$
    select coalesce(pg_catalog.jsonb_agg(pg_catalog.jsonb_build_object(
             'entry_id', h.entry_id, 'rung', h.rung, 'earned_at', h.earned_at,
             'name', w.name, 'email', w.email, 'referral_credits', w.referral_credits
           ) order by h.earned_at, h.entry_id, h.rung), '[]'::jsonb)
      from (select e.entry_id, e.rung, e.earned_at from private.waitlist_rewards_earned e
             where e.status = 'held'
             order by e.earned_at, e.entry_id, e.rung
             limit %s) h
      cross join lateral (select x.name, x.email, x.referral_credits from public.waitlist x where x.id = h.entry_id limit 1) w$held$,
    greatest(0, least(max_rows, 1000)))
    into held;
  return held;
end
$$;

comment on function public.waitlist_held_rewards(integer) is
  'For the owner''s console (service role): up to max_rows held perks, oldest first, each {entry_id, rung, earned_at, name, email, referral_credits}.';

revoke all on function public.waitlist_held_rewards(integer) from public, anon, authenticated, service_role;
grant execute on function public.waitlist_held_rewards(integer) to service_role;

-- The last perks granted, newest first (at once, or by a founder's approval: `approved`), read as
-- the held perks are.
create function public.waitlist_granted_perks(max_rows integer default 20)
returns jsonb
language plpgsql
stable
security definer
set search_path = ''
as $$
declare
  granted jsonb;
begin
  execute pg_catalog.format($granted$
    select coalesce(pg_catalog.jsonb_agg(pg_catalog.jsonb_build_object(
             'entry_id', g.entry_id, 'rung', g.rung, 'earned_at', g.earned_at, 'granted_at', g.decided_at,
             'approved', g.decided_at > g.earned_at, 'name', w.name, 'email', w.email
           ) order by g.decided_at desc, g.entry_id, g.rung), '[]'::jsonb)
      from (select e.entry_id, e.rung, e.earned_at, e.decided_at from private.waitlist_rewards_earned e
             where e.kind = 'perk' and e.status = 'granted'
             order by e.decided_at desc, e.entry_id, e.rung
             limit %s) g
      cross join lateral (select x.name, x.email from public.waitlist x where x.id = g.entry_id limit 1) w$granted$,
    greatest(0, least(max_rows, 1000)))
    into granted;
  return granted;
end
$$;

comment on function public.waitlist_granted_perks(integer) is
  'For the owner''s console (service role): up to max_rows perks granted, newest first, each {entry_id, rung, earned_at, granted_at, approved, name, email}.';

revoke all on function public.waitlist_granted_perks(integer) from public, anon, authenticated, service_role;
grant execute on function public.waitlist_granted_perks(integer) to service_role;
