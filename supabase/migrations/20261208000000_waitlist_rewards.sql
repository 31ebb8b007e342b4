-- Rewards for bringing friends (issue #68): the ladder copied from Sanity, each rung earned once
-- as counted credits cross it, places added to the line's key, held perks decided by a founder,
-- their messages, the founders' reads and the own page's share. See
-- supabase/schemas/18_rewards.sql for what this guarantees.
--
-- Never edit this file once applied; change it with a later migration.

alter table public.waitlist
  add column reward_places integer not null default 0,
  add constraint waitlist_reward_places_count check (reward_places >= 0);

comment on column public.waitlist.reward_places is
  'Places the rewards ladder''s ''places'' rungs earned (18_rewards.sql), moving the entry up the line on top of its referral credits.';

alter table public.waitlist_outbox drop constraint waitlist_outbox_kind_check, drop constraint waitlist_outbox_webhook;
alter table public.waitlist_outbox
  add constraint waitlist_outbox_kind_check check (kind in (
    'confirmation_email', 'access_email', 'invitation_email', 'reminder_email', 'update_email', 'reward_email',
    'slack_confirmed', 'slack_joined', 'slack_reward', 'erasure_email', 'webhook'
  )),
  add constraint waitlist_outbox_webhook check (
    kind <> 'webhook'
    or coalesce(payload ->> 'type' in ('entry.confirmed', 'entry.invited', 'entry.joined', 'referral.credited', 'reward.earned', 'entry.left')
                and jsonb_typeof(payload -> 'data') = 'object' and retry_until is not null, false)
  );

comment on column public.waitlist_outbox.payload is
  'slack_confirmed: the running total. reward_email: {rung}. slack_reward: {rung, kind, status}. erasure_email: the recipient''s address and name until the message is done, then {}. webhook: {type, occurred_at, data} without a name or address (read when it is sent).';

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

-- A publish's grants are bulk (07_outbox.sql); no stored message carries "ladder" yet, so the
-- claim index's stored ranks stay right without a rebuild.
create or replace function private.waitlist_outbox_rank(kind text, payload jsonb)
returns smallint
language sql
immutable
parallel safe
set search_path = ''
return case
  when kind = 'update_email' or payload ? 'import' or payload ? 'ladder' then 3
  when kind like '%\_email' then 0
  when kind like 'slack\_%' or payload ->> 'type' = 'entry.invited' then 1
  else 2
end;
-- Each dispatcher run catches up what a publish still owes (07_outbox.sql).
create or replace function public.waitlist_purge_pending()
returns integer
language plpgsql
volatile
security definer
set search_path = ''
as $$
declare
  settings private.waitlist_confirmation_settings;
  caps private.waitlist_mail_caps;
  invitations private.waitlist_invitation_settings;
  deleted integer;
begin
  select * into strict settings from private.waitlist_confirmation_settings;
  select * into strict caps from private.waitlist_mail_caps;
  select * into strict invitations from private.waitlist_invitation_settings;
  update public.waitlist_outbox o
     set status = 'failed',
         note = pg_catalog.left(pg_catalog.format('Not sent within %s; given up, and the address removed.', settings.erasure_email_lifetime), 200)
   where o.kind = 'erasure_email' and o.status = 'pending' and o.created_at + settings.erasure_email_lifetime < pg_catalog.now();
  -- Not one whose confirmation is still to be sent: an imported list's wait behind every other e-mail.
  delete from public.waitlist w
   where w.status = 'pending'
     and w.confirm_by + settings.purge_pending_after < pg_catalog.now()
     and not exists (
       select 1 from public.waitlist_outbox o
        where o.entry_id = w.id and o.kind = 'confirmation_email' and o.status in ('pending', 'sending')
     );
  get diagnostics deleted = row_count;
  -- What an import's command left when it died (16_imports.sql), a chunk a run: an import that
  -- wrote nothing for an hour (or is being taken out) is taken out, a committed one's people
  -- confirmed and its held messages released.
  perform public.waitlist_import_abort(i.id)
     from private.waitlist_imports i
    where i.committed_at is null
      and (i.aborted_at is not null or private.waitlist_import_active_at(i.id) < pg_catalog.now() - interval '1 hour')
    order by i.started_at
    limit 1;
  perform public.waitlist_import_commit(i.id)
     from private.waitlist_imports i
    where i.committed_at is not null and i.released_at is null
    order by i.started_at
    limit 1;
  -- The rewards a publish still owes to whoever already reached them (18_rewards.sql), a batch a run.
  perform private.waitlist_rewards_catch_up(2000);
  delete from private.waitlist_tokens k where k.expires_at < pg_catalog.now() - interval '30 days';
  delete from private.waitlist_mail_log l where l.created_at < pg_catalog.now() - greatest(caps.recipient_window, interval '1 hour');
  -- Finished deliveries are kept for the console, then go: with WAITLIST_WEBHOOK_URL unset every
  -- event is marked skipped at once, and its row must not stay forever.
  delete from public.waitlist_outbox o
   where o.kind = 'webhook' and o.status in ('sent', 'skipped', 'failed', 'in_doubt')
     and o.created_at < pg_catalog.now() - (select h.keep_finished from private.waitlist_webhook_settings h);

  -- One reminder per invitation still unused after reminder_after (and not about to expire anyway).
  with due as (
    update private.waitlist_invitations i set reminded_at = pg_catalog.now()
     where i.redeemed_at is null and i.expired_at is null and i.reminded_at is null
       and i.invited_at + invitations.reminder_after <= pg_catalog.now() and i.expires_at > pg_catalog.now()
    returning i.id, i.entry_id
  )
  insert into public.waitlist_outbox (entry_id, kind, payload)
  select due.entry_id, 'reminder_email', pg_catalog.jsonb_build_object('invitation_id', due.id) from due;

  -- Expired unused: back in line, at the place they had earned.
  with gone as (
    update private.waitlist_invitations i set expired_at = pg_catalog.now()
     where i.redeemed_at is null and i.expired_at is null and i.expires_at <= pg_catalog.now()
    returning i.entry_id
  )
  update public.waitlist w set status = 'confirmed' from gone where w.id = gone.entry_id and w.status = 'invited';
  return deleted;
end
$$;
-- The line's key takes the places rungs earned (05_line.sql).
create function private.waitlist_line_key(arrival bigint, referral_credits integer, reward_places integer, status text)
returns bigint
language plpgsql
stable
set search_path = ''
as $$
begin
  if status is distinct from 'confirmed' then
    return null;
  end if;
  return arrival - referral_credits::bigint * (select s.places_per_referral from private.waitlist_referral_settings s) - reward_places;
end
$$;
revoke all on function private.waitlist_line_key(bigint, integer, integer, text) from public, anon, authenticated, service_role;

create or replace function private.waitlist_arrival()
returns trigger
language plpgsql
security definer
set search_path = ''
as $$
declare
  line private.waitlist_line;
begin
  if new.status = 'pending' then
    return null;
  end if;
  select * into line from private.waitlist_line l where l.entry_id = new.id;
  if found then
    -- Only a change is written: an unchanged row would still fire the counts' statement trigger,
    -- and waitlist_invite_next takes its people out of the line in one statement beforehand.
    if line.line_key is distinct from private.waitlist_line_key(line.arrival, new.referral_credits, new.reward_places, new.status) then
      update private.waitlist_line l set line_key = private.waitlist_line_key(l.arrival, new.referral_credits, new.reward_places, new.status)
       where l.entry_id = new.id;
    end if;
  else
    -- An imported entry with its original sign-up time has its arrival reserved (16_imports.sql);
    -- coalesce draws from the sequence only without one.
    insert into private.waitlist_line (entry_id, arrival, line_key)
    select new.id, a.arrival, private.waitlist_line_key(a.arrival, new.referral_credits, new.reward_places, new.status)
      from (select coalesce(
              (select i.arrival from private.waitlist_imported i where i.entry_id = new.id),
              pg_catalog.nextval('private.waitlist_line_arrival')
            ) as arrival) a;
  end if;
  return null;
end
$$;
drop trigger waitlist_arrival on public.waitlist;

create trigger waitlist_arrival
  after insert or update of status, referral_credits, reward_places on public.waitlist
  for each row execute function private.waitlist_arrival();

create or replace function private.waitlist_line_rebuild()
returns void
language plpgsql
volatile
security definer
set search_path = ''
as $$
begin
  lock table private.waitlist_line in exclusive mode;
  insert into private.waitlist_line (entry_id, arrival, line_key)
  select n.id, n.arrival, private.waitlist_line_key(n.arrival, n.referral_credits, n.reward_places, n.status)
    from (select w.id, w.referral_credits, w.reward_places, w.status,
                 coalesce((select max(l.arrival) from private.waitlist_line l), 0)
                   + pg_catalog.row_number() over (order by coalesce(w.confirmed_at, w.created_at), w.created_at, w.id) as arrival
            from public.waitlist w
           where w.status <> 'pending' and not exists (select 1 from private.waitlist_line l where l.entry_id = w.id)) n;
  perform pg_catalog.setval('private.waitlist_line_arrival', greatest(m.arrival, q.last_value))
     from (select max(l.arrival) as arrival from private.waitlist_line l) m, private.waitlist_line_arrival q
    where m.arrival is not null;
  update private.waitlist_line l set line_key = private.waitlist_line_key(l.arrival, w.referral_credits, w.reward_places, w.status)
    from public.waitlist w
   where w.id = l.entry_id and l.line_key is distinct from private.waitlist_line_key(l.arrival, w.referral_credits, w.reward_places, w.status);
  -- The counts from scratch (nothing else writes them while the line is locked): also right after
  -- a change of the bucket width. The invitations' counts do not follow the line.
  delete from private.waitlist_line_counts c where c.counter in ('line', 'total');
  insert into private.waitlist_line_counts (counter, bucket, entries)
  select 'line', private.waitlist_line_bucket(l.line_key), count(*) from private.waitlist_line l where l.line_key is not null group by 2
  union all
  select 'total', 0, count(*) from private.waitlist_line l having count(*) > 0;
end
$$;
drop function private.waitlist_line_key(bigint, integer, text);

-- A credit takes the ladder's lock before its referrer's row (05_line.sql).
create or replace function private.waitlist_referral_credit()
returns trigger
language plpgsql
security definer
set search_path = ''
as $$
declare
  v_mailbox text;
  v_reason text;
begin
  if tg_op = 'INSERT' then
    perform private.waitlist_note_signup_network(new.id, new.referred_by);
  end if;
  if new.status = 'confirmed' and new.referred_by is not null and (tg_op = 'INSERT' or old.status = 'pending') then
    -- The ladder before the referrer's row (as a publish takes them, 18_rewards.sql): a publish and
    -- a credit never wait for each other crosswise.
    perform private.waitlist_rewards_steady();
    -- The referrer's row first: concurrent confirmations for one referrer are counted one after the other.
    perform 1 from public.waitlist w where w.id = new.referred_by for update;
    v_mailbox := private.waitlist_mailbox_hash('referral ' || new.referred_by::text, new.email);
    insert into private.waitlist_referral_ledger (referrer_id, mailbox_hash, referred_id)
    values (new.referred_by, v_mailbox, new.id)
    on conflict do nothing;
    if found then
      v_reason := private.waitlist_referral_hold_reason(new.referred_by, new);
      if v_reason is null then
        update public.waitlist set referral_credits = referral_credits + 1 where id = new.referred_by;
      else
        insert into private.waitlist_referral_holds (referrer_id, mailbox_hash, referred_id, reason)
        values (new.referred_by, v_mailbox, new.id, v_reason);
      end if;
    end if;
  end if;
  return null;
end
$$;
create or replace function public.waitlist_decide_credit(hold_id bigint, grant_credit boolean)
returns jsonb
language plpgsql
volatile
security definer
set search_path = ''
as $$
declare
  held private.waitlist_referral_holds;
begin
  if grant_credit is null then
    raise exception 'grant_credit must be true (grant) or false (refuse)' using errcode = '22004';
  end if;
  -- As a credit at confirmation: the ladder before the referrer's row (18_rewards.sql).
  perform private.waitlist_rewards_steady();
  update private.waitlist_referral_holds h
     set decision = case when grant_credit then 'granted' else 'refused' end, decided_at = pg_catalog.now()
   where h.id = hold_id and h.decision is null
  returning * into held;
  if found then
    if held.decision = 'granted' then
      update public.waitlist w set referral_credits = w.referral_credits + 1 where w.id = held.referrer_id;
    end if;
    return pg_catalog.jsonb_build_object('id', held.id, 'decision', held.decision, 'changed', true);
  end if;
  select * into held from private.waitlist_referral_holds h where h.id = hold_id;
  if not found then
    return null;
  end if;
  return pg_catalog.jsonb_build_object('id', held.id, 'decision', held.decision, 'changed', false);
end
$$;
-- Segments may name rungs granted ("@rung": 15_questions.sql, 05_line.sql).
create or replace function private.waitlist_segment_check(segment jsonb)
returns void
language plpgsql
immutable
set search_path = ''
as $$
begin
  if segment is null or pg_catalog.jsonb_typeof(segment) <> 'object' or segment = '{}'::jsonb
     or (select pg_catalog.count(*) from pg_catalog.jsonb_object_keys(segment - '@rung')) > 5
     or exists (
       select 1
         from pg_catalog.jsonb_each(segment - '@rung') s
        where s.key !~ '^[a-z][a-z0-9-]{0,39}$'
           or pg_catalog.jsonb_typeof(s.value) <> 'array'
           or pg_catalog.jsonb_array_length(s.value) not between 1 and 12
           or exists (
             select 1 from pg_catalog.jsonb_array_elements(s.value) o
              where pg_catalog.jsonb_typeof(o) <> 'string' or (o #>> '{}') !~ '^[a-z0-9][a-z0-9-]{0,39}$'
           )
     ) then
    raise exception 'a segment is {"question key": ["option key", ...]}: 1 to 5 questions of 1 to 12 options' using errcode = '22023';
  end if;
  if segment ? '@rung' and (
       pg_catalog.jsonb_typeof(segment -> '@rung') <> 'array'
       or pg_catalog.jsonb_array_length(segment -> '@rung') not between 1 and 8
       or exists (
         select 1 from pg_catalog.jsonb_array_elements(segment -> '@rung') r
          where pg_catalog.jsonb_typeof(r) <> 'string' or (r #>> '{}') !~ '^[a-z][a-z0-9-]{0,39}$'
       )
     ) then
    raise exception 'a segment''s "@rung" is ["rung key", ...]: 1 to 8 rungs' using errcode = '22023';
  end if;
end
$$;
create or replace function private.waitlist_in_segment(answers jsonb, segment jsonb)
returns boolean
language sql
immutable
parallel safe
set search_path = ''
return not exists (
  select 1
    from pg_catalog.jsonb_each(segment) s
   where s.key <> '@rung'
     and not coalesce((answers -> s.key -> 'options') ?| array(select pg_catalog.jsonb_array_elements_text(s.value)), false)
);
create or replace function public.waitlist_line_head(n integer default 20, segment jsonb default null)
returns jsonb
language plpgsql
stable
security definer
set search_path = ''
as $$
declare
  head jsonb;
begin
  if segment is not null then
    perform private.waitlist_segment_check(segment);
  end if;
  -- The limit is written into the statement so that it is planned with it: the index read in
  -- order. A limit given as a parameter is planned as a tenth of the line, which sorts it all.
  -- Each person is read by their id (a subquery per row; every line row has its entry, on delete
  -- cascade): joined, 10,000 of them were planned as a hash of the whole list. A segment is judged
  -- the same way, row by row as the index is read, so the read stops at the n-th one in it.
  execute pg_catalog.format($head$
    select coalesce(pg_catalog.jsonb_agg(
             (select pg_catalog.jsonb_build_object(
                       'place', h.place, 'id', w.id, 'name', w.name, 'email', w.email, 'project', w.project,
                       'referral_credits', w.referral_credits, 'confirmed_at', w.confirmed_at)
                from public.waitlist w where w.id = h.entry_id)
             order by h.place), '[]'::jsonb)
      from %s h$head$,
    case when segment is null then pg_catalog.format($line$
      (select l.entry_id, pg_catalog.row_number() over (order by l.line_key, l.arrival) as place
         from (select x.entry_id, x.line_key, x.arrival from private.waitlist_line x
                where x.line_key is not null order by x.line_key, x.arrival limit %s) l)$line$, greatest(0, least(n, 10000)))
    else pg_catalog.format($segment$
      (select l.entry_id, l.place
         from (select x.entry_id, pg_catalog.row_number() over (order by x.line_key, x.arrival) as place
                 from private.waitlist_line x where x.line_key is not null order by x.line_key, x.arrival) l
        where (select private.waitlist_in_segment(w.answers, $1) and private.waitlist_in_rungs(w.id, $1) from public.waitlist w where w.id = l.entry_id)
        limit %s)$segment$, greatest(0, least(n, 10000)))
    end)
    into head
    using segment;
  return head;
end
$$;
-- The export's rewards column (13_founders.sql).
create or replace function public.waitlist_export_page(
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
begin
  perform private.waitlist_export_arguments(after_created_at, after_id, page_size);
  if (upto_created_at is null) <> (upto_id is null) then
    raise exception 'upto_created_at and upto_id go together' using errcode = '22023';
  end if;
  return coalesce((
    select pg_catalog.json_agg(pg_catalog.json_build_array(
             p.id, p.created_at, p.status, p.confirmed_at, p.invited_at, p.joined_at, p.name, p.email, p.project,
             p.utm_source, p.utm_medium, p.utm_campaign, p.referrer_host, p.landing_path, p.flag,
             p.referral_credits, p.referred_by, r.email, p.updates, p.updates_opted_in_at, p.updates_stopped_at, p.language, p.answers,
             -- Only a referrer can have earned a rung (18_rewards.sql): everyone else's is not looked up.
             case when p.referral_credits > 0 then (
               select pg_catalog.string_agg(e.rung || ':' || e.status, ';' order by e.earned_at, e.rung)
                 from private.waitlist_rewards_earned e where e.entry_id = p.id
             ) end
           ) order by p.created_at, p.id)
      from (select w.*
              from public.waitlist w
             where (w.created_at, w.id) > (coalesce(after_created_at, '-infinity'), coalesce(after_id, '00000000-0000-0000-0000-000000000000'))
               and (w.created_at, w.id) <= (coalesce(upto_created_at, 'infinity'), coalesce(upto_id, 'ffffffff-ffff-ffff-ffff-ffffffffffff'))
             order by w.created_at, w.id
             limit page_size) p
      left join public.waitlist r on r.id = p.referred_by
  ), '[]'::json);
end
$$;
comment on function public.waitlist_export_page(timestamptz, uuid, integer, timestamptz, uuid) is
  'Up to page_size entries (1 to 50,000) after (after_created_at, after_id) and up to and including (upto_created_at, upto_id), oldest first, as one json array of arrays (id, created_at, status, confirmed_at, invited_at, joined_at, name, email, project, utm_source, utm_medium, utm_campaign, referrer_host, landing_path, flag, referral_credits, referred_by, the referrer''s email, updates, updates_opted_in_at, updates_stopped_at, language, answers, the rewards earned as "rung:status;…" or null): keyset pages of the whole list for waitlist:list and waitlist:export. service_role only.';

-- The own page's rewards and the export's (08_own_data.sql).
create or replace function public.waitlist_me(token text)
returns jsonb
language plpgsql
volatile
security definer
set search_path = ''
as $$
declare
  held record;
  invitation private.waitlist_invitations;
begin
  perform private.waitlist_limit_network(
    'own_data', (select s.own_data_per_client from private.waitlist_referral_settings s), (select s.window_seconds from private.waitlist_confirmation_settings s),
    'Too many attempts from this network. Please wait a few minutes and try again.', 'calls'
  );
  select * into held from private.waitlist_token_entry(token, false);
  if (held.entry).id is null then
    return null;
  end if;
  if held.expired then
    return pg_catalog.jsonb_build_object('status', 'expired');
  end if;
  if (held.entry).status = 'pending' then
    return pg_catalog.jsonb_build_object('status', 'pending', 'confirm_by', (held.entry).confirm_by);
  end if;
  if (held.entry).status = 'invited' then
    select * into invitation from private.waitlist_invitations i where i.entry_id = (held.entry).id and i.redeemed_at is null and i.expired_at is null;
    return pg_catalog.jsonb_build_object('status', 'invited', 'invited_at', (held.entry).invited_at, 'invitation_expires_at', invitation.expires_at,
                                         'rewards', private.waitlist_own_rewards((held.entry).id));
  end if;
  if (held.entry).status = 'joined' then
    return pg_catalog.jsonb_build_object('status', 'joined', 'joined_at', (held.entry).joined_at, 'rewards', private.waitlist_own_rewards((held.entry).id));
  end if;
  return pg_catalog.jsonb_build_object(
    'status', (held.entry).status,
    'place', private.waitlist_place((held.entry).id),
    'confirmed_total', private.waitlist_line_total('line'),
    'referrals', (held.entry).referral_credits,
    'referral_code', (held.entry).referral_code,
    'places_per_referral', (select s.places_per_referral from private.waitlist_referral_settings s),
    'rewards', private.waitlist_own_rewards((held.entry).id)
  );
end
$$;
comment on function public.waitlist_me(text) is
  'What the link''s page shows its holder: ''pending'' (press to confirm), ''expired'', or their place, credits, referral code and rewards ([{rung, status}], granted or held); null for any other token. Rate limited per network.';

create or replace function public.waitlist_export_me(token text)
returns jsonb
language plpgsql
volatile
security definer
set search_path = ''
as $$
declare
  entry public.waitlist := private.waitlist_entry_for_token(token);
begin
  if entry.id is null then
    return null;
  end if;
  return pg_catalog.jsonb_build_object(
    'entry', (pg_catalog.to_jsonb(entry) - array['email_key', 'ref', 'referred_by'])
             || pg_catalog.jsonb_build_object('came_through_a_referral_link', entry.referred_by is not null),
    'invitations', (
      select coalesce(pg_catalog.jsonb_agg(pg_catalog.jsonb_build_object(
               'invited_at', i.invited_at, 'expires_at', i.expires_at, 'out_of_order', i.out_of_order,
               'reminded_at', i.reminded_at, 'redeemed_at', i.redeemed_at, 'expired_at', i.expired_at
             ) order by i.invited_at), '[]'::jsonb)
        from private.waitlist_invitations i
       where i.entry_id = entry.id
    ),
    -- Brought from another tool (16_imports.sql): when, and the consent the founders recorded.
    'imported', (
      select pg_catalog.jsonb_build_object('imported_at', i.started_at, 'line', e.line, 'consent', i.consent)
        from private.waitlist_imported e join private.waitlist_imports i on i.id = e.import_id
       where e.entry_id = entry.id
    ),
    'rewards', (
      select coalesce(pg_catalog.jsonb_agg(pg_catalog.jsonb_build_object(
               'rung', r.rung, 'kind', r.kind, 'places', r.places, 'status', r.status, 'earned_at', r.earned_at, 'decided_at', r.decided_at
             ) order by r.earned_at, r.rung), '[]'::jsonb)
        from private.waitlist_rewards_earned r
       where r.entry_id = entry.id
    ),
    'messages', (
      select coalesce(pg_catalog.jsonb_agg(pg_catalog.jsonb_build_object(
               'kind', o.kind, 'status', o.status, 'attempts', o.attempts, 'created_at', o.created_at, 'sent_at', o.sent_at
             ) order by o.created_at), '[]'::jsonb)
        from public.waitlist_outbox o
       where o.entry_id = entry.id
    ),
    'exported_at', pg_catalog.now()
  );
end
$$;
comment on function public.waitlist_export_me(text) is
  'Everything stored about the token holder (their entry, its messages, invitations and rewards earned), as JSON; null for any other token. Rate limited per network.';
