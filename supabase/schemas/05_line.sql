-- The line and referrals: a person's place, and the credit their referral link earns.
--
-- Guarantees:
--   * Every entry gets a public referral code (22 base64url characters, random, naming nobody). A
--     sign-up may carry the code it came through in the write-only column ref: the trigger
--     resolves it to referred_by and clears it. An unknown code, or one of the same mailbox
--     (self-referral, compared by waitlist_rules.mailbox_key), counts for nothing, and the sign-up
--     goes through the same way, so a code cannot be tested by signing up.
--   * A referral is credited once, when the referred person first confirms, and once per mailbox
--     however spelt and however often it erases itself and comes back
--     (private.waitlist_referral_ledger: a salted fingerprint, no address, no name).
--   * The line (private.waitlist_line) is the one order of confirmed people: by arrival (a number
--     drawn at the first confirmation), each credit moving an entry up places_per_referral
--     arrivals, and each place a rewards rung earned (reward_places, 18_rewards.sql) one arrival
--     more. The place a person is shown (private.waitlist_place) and the order of invitations
--     (waitlist_line_head) both read it, and nothing else; neither ranks the whole list, and
--     concurrent confirmations and credits never wait for each other on a shared row.
--   * A credit counts only for a real person: it is HELD (recorded in private.waitlist_referral_holds,
--     moving nobody) when the referred address is at a disposable-mail domain
--     (private.waitlist_disposable_domains, generated from an npm package: 11_disposable_domains.sql)
--     or a domain of the founders' blocked_domains, when the referred person signed up from the
--     referrer's own network within same_network_seconds of the referrer's sign-up, or when the
--     referrer already had velocity_max referrals confirmed within velocity_seconds. Nothing a
--     visitor can see differs (waitlist_me shows referral_credits, which a held credit leaves
--     alone), so a cheat learns nothing. A founder grants (then it counts exactly as an unheld
--     one) or refuses each, once (public.waitlist_decide_credit). Each signal is a setting of the
--     one settings row, all on by default.
--   * The network comparison stores no address: each sign-up's salted network key
--     (private.waitlist_network_keys, 03_limits.sql) is kept for same_network_seconds at most (an
--     hour at most, as the privacy page says), and of a referred entry only the verdict "same network".
--
-- TypeScript twins: components/waitlist/my-place.tsx (the place shown) and
-- tools/owner/console/server.ts (the head of the line).

create table private.waitlist_referral_settings (
  only_row boolean primary key default true check (only_row),
  own_data_per_client integer not null check (own_data_per_client > 0),
  places_per_referral integer not null default 5 check ((places_per_referral >= 0) and (places_per_referral <= 1000)),
  hold_disposable boolean not null default true,
  blocked_domains text[] not null default '{}'::text[],
  hold_same_network boolean not null default true,
  same_network_seconds integer not null default 3600 check ((same_network_seconds >= 0) and (same_network_seconds <= 3600)),
  hold_velocity boolean not null default true,
  velocity_max integer not null default 5 check (velocity_max >= 0),
  velocity_seconds integer not null default 3600 check ((velocity_seconds >= 1) and (velocity_seconds <= 86400))
);

comment on table private.waitlist_referral_settings is
  'Own-data limits, places per referral and when a referral credit is held (one row). Change them with an update in a migration.';

comment on column private.waitlist_referral_settings.blocked_domains is
  'The founders'' own blocklist: a credit earned by an address at one of these domains (or a subdomain) is held.';

comment on column private.waitlist_referral_settings.same_network_seconds is
  'A referred person signing up from the referrer''s network within this many seconds of the referrer''s sign-up earns a held credit; also how long sign-up network keys are kept.';

comment on column private.waitlist_referral_settings.velocity_max is
  'A credit is held when the referrer already had this many referrals confirmed within velocity_seconds.';

comment on column private.waitlist_referral_settings.places_per_referral is
  'How many places each confirmed referral moves an entry up the line.';

revoke all on table private.waitlist_referral_settings from public, anon, authenticated, service_role;

create table private.waitlist_referral_ledger (
  referrer_id uuid not null references public.waitlist (id) on delete cascade,
  mailbox_hash text not null check (mailbox_hash ~ '^[0-9a-f]{64}$'),
  referred_id uuid references public.waitlist (id) on delete set null,
  credited_at timestamptz not null default now(),
  primary key (referrer_id, mailbox_hash)
);

comment on table private.waitlist_referral_ledger is
  'One row per referral credit, counted unless held (private.waitlist_referral_holds): the referrer, a salted fingerprint of the referred mailbox (one credit per mailbox, ever) and the referred entry while it exists.';

-- An erasure sets referred_id to null through it (one row per credit: it grows with the referrals).
create index waitlist_referral_ledger_referred on private.waitlist_referral_ledger (referred_id);

revoke all on table private.waitlist_referral_ledger from public, anon, authenticated, service_role;

create table private.waitlist_referral_holds (
  id bigint generated always as identity primary key,
  referrer_id uuid not null,
  mailbox_hash text not null,
  referred_id uuid references public.waitlist (id) on delete set null,
  reason text not null,
  held_at timestamptz not null default now(),
  decision text,
  decided_at timestamptz,

  constraint waitlist_referral_holds_credit unique (referrer_id, mailbox_hash),
  constraint waitlist_referral_holds_ledger foreign key (referrer_id, mailbox_hash)
    references private.waitlist_referral_ledger (referrer_id, mailbox_hash) on delete cascade,
  constraint waitlist_referral_holds_reason_check check (reason in ('disposable_domain', 'blocked_domain', 'same_network', 'velocity')),
  constraint waitlist_referral_holds_decision_check check (decision in ('granted', 'refused')),
  constraint waitlist_referral_holds_decided check ((decision is null) = (decided_at is null))
);

comment on table private.waitlist_referral_holds is
  'Referral credits held for a founder''s decision, with the reason; granted ones count, undecided and refused ones do not.';

create index waitlist_referral_holds_referred on private.waitlist_referral_holds (referred_id);

revoke all on table private.waitlist_referral_holds from public, anon, authenticated, service_role;

create table private.waitlist_disposable_domains (
  domain text primary key check ((domain = lower(domain)) and (domain like '%.%'))
);

comment on table private.waitlist_disposable_domains is
  'Disposable-mail domains (generated from an npm package: supabase/schemas/11_disposable_domains.sql); a credit from one is held.';

revoke all on table private.waitlist_disposable_domains from public, anon, authenticated, service_role;

create table private.waitlist_signup_networks (
  entry_id uuid primary key references public.waitlist (id) on delete cascade,
  client_hash text not null check (client_hash ~ '^[0-9a-f]{64}$'),
  created_at timestamptz not null default now()
);

comment on table private.waitlist_signup_networks is
  'The salted network key of each recent sign-up, kept same_network_seconds at most, to tell a referral from the referrer''s own network.';

create index waitlist_signup_networks_created_at on private.waitlist_signup_networks (created_at);

revoke all on table private.waitlist_signup_networks from public, anon, authenticated, service_role;

create table private.waitlist_same_network_referrals (
  entry_id uuid primary key references public.waitlist (id) on delete cascade
);

comment on table private.waitlist_same_network_referrals is
  'Referred entries that signed up from their referrer''s network shortly after the referrer: the verdict only, no network key.';

revoke all on table private.waitlist_same_network_referrals from public, anon, authenticated, service_role;

create function private.waitlist_new_referral_code()
returns text
language sql
volatile
set search_path = ''
as $$
  select pg_catalog.translate(
    pg_catalog.left(pg_catalog.encode(pg_catalog.sha256(pg_catalog.uuid_send(gen_random_uuid()) || pg_catalog.uuid_send(gen_random_uuid())), 'base64'), 22),
    '+/', '-_'
  )
$$;

revoke all on function private.waitlist_new_referral_code() from public, anon, authenticated, service_role;

create function private.waitlist_referral()
returns trigger
language plpgsql
security definer
set search_path = ''
as $$
declare
  referrer public.waitlist;
begin
  new.referral_code := private.waitlist_new_referral_code();
  new.referred_by := null;
  if new.ref ~ '^[A-Za-z0-9_-]{22}$' then
    select * into referrer from public.waitlist w where w.referral_code = new.ref;
    if found and waitlist_rules.mailbox_key(referrer.email) <> waitlist_rules.mailbox_key(new.email) then
      new.referred_by := referrer.id;
    end if;
  end if;
  new.ref := null;
  return new;
end
$$;

revoke all on function private.waitlist_referral() from public, anon, authenticated, service_role;

create trigger waitlist_referral
  before insert on public.waitlist
  for each row execute function private.waitlist_referral();

-- A domain and every domain it is a subdomain of: a.b.example -> a.b.example, b.example, example.
create function private.waitlist_domain_suffixes(host text)
returns setof text
language sql
immutable
strict
set search_path = ''
as $$
  select pg_catalog.array_to_string(labels[i:], '.')
    from (select pg_catalog.string_to_array(pg_catalog.lower(host), '.') as labels) d,
         pg_catalog.generate_subscripts(d.labels, 1) i
$$;

revoke all on function private.waitlist_domain_suffixes(text) from public, anon, authenticated, service_role;

-- At each sign-up through the API: the verdict "same network as the referrer" for a referred entry
-- (only the verdict is kept), and this sign-up's salted network key for the referrals that may
-- follow, kept same_network_seconds at most. Old keys are pruned as it goes.
create function private.waitlist_note_signup_network(p_entry uuid, p_referrer uuid)
returns void
language plpgsql
security definer
set search_path = ''
as $$
declare
  settings private.waitlist_referral_settings;
  since timestamptz;
  v_key text;
begin
  select * into strict settings from private.waitlist_referral_settings;
  since := pg_catalog.now() - pg_catalog.make_interval(secs => settings.same_network_seconds);
  delete from private.waitlist_signup_networks
   where entry_id in (
     select n.entry_id from private.waitlist_signup_networks n
      where n.created_at <= since
      order by n.created_at limit 100 for update skip locked
   );
  if not settings.hold_same_network or settings.same_network_seconds = 0 then
    return;
  end if;
  select k.client_hash into v_key
    from private.waitlist_network_keys(private.waitlist_request_client()) k
   where k.scope = 'network';
  if v_key is null then
    return;
  end if;
  if p_referrer is not null and exists (
    select 1 from private.waitlist_signup_networks n
     where n.entry_id = p_referrer and n.client_hash = v_key and n.created_at > since
  ) then
    insert into private.waitlist_same_network_referrals (entry_id) values (p_entry);
  end if;
  insert into private.waitlist_signup_networks (entry_id, client_hash) values (p_entry, v_key);
end
$$;

revoke all on function private.waitlist_note_signup_network(uuid, uuid) from public, anon, authenticated, service_role;

-- Why a credit `p_referred` earns `p_referrer` is held, or null when it counts. Its ledger row is
-- already written, so the velocity count includes it.
create function private.waitlist_referral_hold_reason(p_referrer uuid, p_referred public.waitlist)
returns text
language plpgsql
stable
security definer
set search_path = ''
as $$
declare
  settings private.waitlist_referral_settings;
  v_domain text := pg_catalog.split_part(p_referred.email, '@', -1);
begin
  select * into strict settings from private.waitlist_referral_settings;
  if settings.hold_disposable and exists (
    select 1 from private.waitlist_disposable_domains d
     where d.domain in (select s from private.waitlist_domain_suffixes(v_domain) s)
  ) then
    return 'disposable_domain';
  end if;
  if exists (
    select 1 from pg_catalog.unnest(settings.blocked_domains) b
     where pg_catalog.lower(pg_catalog.btrim(b)) in (select s from private.waitlist_domain_suffixes(v_domain) s)
  ) then
    return 'blocked_domain';
  end if;
  if settings.hold_same_network and exists (select 1 from private.waitlist_same_network_referrals r where r.entry_id = p_referred.id) then
    return 'same_network';
  end if;
  if settings.hold_velocity and (
    select count(*) from private.waitlist_referral_ledger l
     where l.referrer_id = p_referrer
       and l.credited_at > pg_catalog.now() - pg_catalog.make_interval(secs => settings.velocity_seconds)
  ) > settings.velocity_max then
    return 'velocity';
  end if;
  return null;
end
$$;

revoke all on function private.waitlist_referral_hold_reason(uuid, public.waitlist) from public, anon, authenticated, service_role;

-- A referral is credited when the referred person first confirms, not when they come back in line;
-- held instead when waitlist_referral_hold_reason names a reason.
create function private.waitlist_referral_credit()
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

revoke all on function private.waitlist_referral_credit() from public, anon, authenticated, service_role;

create trigger waitlist_referral_credit
  after insert or update of status on public.waitlist
  for each row execute function private.waitlist_referral_credit();

-- The line's order: each entry that confirms draws an arrival number (private.waitlist_line_arrival,
-- kept for good: an invitation that expires puts the person back with the same one), and its key is
-- arrival - referral_credits * places_per_referral - reward_places while it is in the line (status
-- 'confirmed'), null otherwise. The line is the order of (key, arrival): each credit moves an entry
-- up places_per_referral arrivals, each place a rung earned one more, ties to the earlier arrival. A place is 1 + the entries before it,
-- counted from private.waitlist_line_counts (whole buckets of keys) and the index (inside its own
-- bucket), never by ranking everyone: docs/waitlist.md, "The line".
create sequence private.waitlist_line_arrival;

revoke all on sequence private.waitlist_line_arrival from public, anon, authenticated, service_role;

create table private.waitlist_line (
  entry_id uuid primary key references public.waitlist (id) on delete cascade,
  arrival bigint not null unique,
  line_key bigint
);

comment on table private.waitlist_line is
  'One row per entry that has confirmed and is still on the list: its arrival (fixed at its first confirmation) and its key in the line (null unless status is ''confirmed''). Kept by the waitlist_arrival trigger.';

create index waitlist_line_order on private.waitlist_line (line_key, arrival) where line_key is not null;

revoke all on table private.waitlist_line from public, anon, authenticated, service_role;

create table private.waitlist_line_counts (
  id bigint generated always as identity primary key,
  counter text not null check (counter in ('line', 'total', 'invited', 'joined')),
  bucket bigint not null default 0,
  entries bigint not null
);

comment on table private.waitlist_line_counts is
  'Counts as sums of rows, only ever inserted by a change (so concurrent confirmations never wait for each other) and merged by private.waitlist_line_compact: ''line'' the entries in line per bucket of keys, ''total'' every row of private.waitlist_line (confirmed, invited or joined); ''invited'' the entries ever invited and ''joined'' the invitations redeemed (private.waitlist_invitation_tally).';

create index waitlist_line_counts_bucket on private.waitlist_line_counts (counter, bucket) include (entries);

revoke all on table private.waitlist_line_counts from public, anon, authenticated, service_role;

-- A bucket holds the keys [b * width, (b + 1) * width): a place reads at most (list / width) bucket
-- rows and width index entries. 1,024 keeps both near a thousand at a million entries. A migration
-- that changes it calls private.waitlist_line_rebuild() after.
create function private.waitlist_line_bucket_width()
returns bigint
language sql
immutable
set search_path = ''
as $$
  select 1024::bigint
$$;

revoke all on function private.waitlist_line_bucket_width() from public, anon, authenticated, service_role;

create function private.waitlist_line_bucket(line_key bigint)
returns bigint
language sql
immutable
strict
set search_path = ''
as $$
  select pg_catalog.floor(line_key::numeric / private.waitlist_line_bucket_width())::bigint
$$;

revoke all on function private.waitlist_line_bucket(bigint) from public, anon, authenticated, service_role;

-- The key of an entry with this arrival, credits, rewarded places and status; null out of the line. Read inside the
-- statement that writes it, so a change of places_per_referral (which locks private.waitlist_line
-- first) is never missed by a confirmation running beside it. PL/pgSQL, like the line's other
-- helpers that run with every confirmation and every invited row: its plan is kept for the
-- session, where a SQL function with set search_path is planned again at each call.
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

-- The line row of an entry that is (or was) confirmed follows its status, credits and rewarded places: an arrival
-- at the first confirmation, the key on every change. Named to fire before waitlist_enqueue_messages
-- and waitlist_webhook_events (same-event triggers fire in name order), which read the counts.
create function private.waitlist_arrival()
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

revoke all on function private.waitlist_arrival() from public, anon, authenticated, service_role;

create trigger waitlist_arrival
  after insert or update of status, referral_credits, reward_places on public.waitlist
  for each row execute function private.waitlist_arrival();

-- Merges the counts' rows into one per bucket (dropping empty ones). One merge at a time; a merge
-- already running is skipped, never waited for. Inserts are never blocked: a row committed
-- meanwhile is left for the next merge.
create function private.waitlist_line_compact()
returns void
language plpgsql
volatile
security definer
set search_path = ''
as $$
begin
  if not pg_catalog.pg_try_advisory_xact_lock(pg_catalog.hashtext('waitlist line counts')) then
    return;
  end if;
  with gone as (
    delete from private.waitlist_line_counts c
     where (c.counter, c.bucket) in (
       select d.counter, d.bucket from private.waitlist_line_counts d
        group by d.counter, d.bucket having count(*) > 1 or sum(d.entries) = 0
     )
    returning c.counter, c.bucket, c.entries
  )
  insert into private.waitlist_line_counts (counter, bucket, entries)
  select g.counter, g.bucket, sum(g.entries) from gone g group by g.counter, g.bucket having sum(g.entries) <> 0;
end
$$;

revoke all on function private.waitlist_line_compact() from public, anon, authenticated, service_role;

-- What a statement changed in private.waitlist_line, as rows of counts: the keys it added and
-- removed per bucket (netted), and how many rows it added (negative: removed).
create function private.waitlist_line_count(added bigint[], removed bigint[], entries bigint)
returns void
language plpgsql
volatile
security definer
set search_path = ''
as $$
begin
  insert into private.waitlist_line_counts (counter, bucket, entries)
  select 'line', d.bucket, sum(d.entries)
    from (select private.waitlist_line_bucket(k) as bucket, 1 as entries from pg_catalog.unnest(added) k where k is not null
          union all
          select private.waitlist_line_bucket(k), -1 from pg_catalog.unnest(removed) k where k is not null) d
   group by d.bucket
  having sum(d.entries) <> 0
  union all
  select 'total', 0, waitlist_line_count.entries where waitlist_line_count.entries <> 0;
end
$$;

revoke all on function private.waitlist_line_count(bigint[], bigint[], bigint) from public, anon, authenticated, service_role;

-- Once per statement (a rebuild or an invitation of thousands writes a handful of rows), with a
-- merge now and then so the rows stay about one per bucket.
create function private.waitlist_line_tally()
returns trigger
language plpgsql
security definer
set search_path = ''
as $$
begin
  if tg_op = 'INSERT' then
    perform private.waitlist_line_count(array(select n.line_key from new_rows n), '{}', (select count(*) from new_rows));
  elsif tg_op = 'DELETE' then
    perform private.waitlist_line_count('{}', array(select o.line_key from old_rows o), -(select count(*) from old_rows));
  else
    perform private.waitlist_line_count(array(select n.line_key from new_rows n), array(select o.line_key from old_rows o), 0);
  end if;
  if pg_catalog.random() < 0.05 then
    perform private.waitlist_line_compact();
  end if;
  return null;
end
$$;

revoke all on function private.waitlist_line_tally() from public, anon, authenticated, service_role;

create trigger waitlist_line_tally_insert
  after insert on private.waitlist_line
  referencing new table as new_rows
  for each statement execute function private.waitlist_line_tally();

create trigger waitlist_line_tally_update
  after update on private.waitlist_line
  referencing old table as old_rows new table as new_rows
  for each statement execute function private.waitlist_line_tally();

create trigger waitlist_line_tally_delete
  after delete on private.waitlist_line
  referencing old table as old_rows
  for each statement execute function private.waitlist_line_tally();

-- A confirmed entry's place in line (null for anyone else): the entries in the buckets before its
-- own, plus those before it inside its bucket (an index range), plus one.
create function private.waitlist_place(entry uuid)
returns bigint
language plpgsql
stable
security definer
set search_path = ''
as $$
declare
  line private.waitlist_line;
  own_bucket bigint;
begin
  select * into line from private.waitlist_line l where l.entry_id = entry and l.line_key is not null;
  if not found then
    return null;
  end if;
  own_bucket := private.waitlist_line_bucket(line.line_key);
  return (select coalesce(sum(c.entries), 0) from private.waitlist_line_counts c where c.counter = 'line' and c.bucket < own_bucket)
         + (select count(*) from private.waitlist_line x
             where x.line_key >= own_bucket * private.waitlist_line_bucket_width()
               and (x.line_key, x.arrival) < (line.line_key, line.arrival))
         + 1;
end
$$;

revoke all on function private.waitlist_place(uuid) from public, anon, authenticated, service_role;

-- 'line': how many are in line; 'total': how many have confirmed and are still on the list;
-- 'invited' and 'joined': how many on the list were ever invited, and how many invitations were
-- redeemed. As the calling transaction sees them: two confirmations committing at the same moment
-- may both count the same total.
create function private.waitlist_line_total(counter text)
returns bigint
language plpgsql
stable
security definer
set search_path = ''
as $$
begin
  return (select coalesce(sum(c.entries), 0)::bigint from private.waitlist_line_counts c where c.counter = waitlist_line_total.counter);
end
$$;

revoke all on function private.waitlist_line_total(text) from public, anon, authenticated, service_role;

-- Every key again and the counts from scratch: after a change of places_per_referral (the
-- waitlist_line_rekey trigger: a founder's rare update, one pass over the line), and after a bulk
-- load that bypassed the triggers (rows without a line row get arrivals in order of confirmation).
-- Confirmations wait for it; readers do not.
create function private.waitlist_line_rebuild()
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

revoke all on function private.waitlist_line_rebuild() from public, anon, authenticated, service_role;

create function private.waitlist_line_rekey()
returns trigger
language plpgsql
security definer
set search_path = ''
as $$
begin
  perform private.waitlist_line_rebuild();
  return null;
end
$$;

revoke all on function private.waitlist_line_rekey() from public, anon, authenticated, service_role;

create trigger waitlist_line_rekey
  after update of places_per_referral on private.waitlist_referral_settings
  for each row when (old.places_per_referral is distinct from new.places_per_referral)
  execute function private.waitlist_line_rekey();

-- The head of the line, for the owner: place, name, e-mail and status of the next `n` to invite,
-- read from the line's index; with a segment (answers: 15_questions.sql; rungs granted:
-- 18_rewards.sql), the next `n` of those in it, each with their place in the whole line.
create function public.waitlist_line_head(n integer default 20, segment jsonb default null)
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

revoke all on function public.waitlist_line_head(integer, jsonb) from public, anon, authenticated, service_role;
grant execute on function public.waitlist_line_head(integer, jsonb) to service_role;

-- The held credits, for the founders: each with its reason, who would gain it and whose
-- confirmation earned it (null once that person erased themselves); undecided ones only unless
-- `include_decided`.
create function public.waitlist_held_credits(include_decided boolean default false)
returns jsonb
language sql
stable
security definer
set search_path = ''
as $$
  select coalesce(pg_catalog.jsonb_agg(pg_catalog.jsonb_build_object(
           'id', h.id, 'reason', h.reason, 'held_at', h.held_at, 'decision', h.decision, 'decided_at', h.decided_at,
           'referrer_name', r.name, 'referrer_email', r.email, 'referred_email', f.email
         ) order by h.held_at, h.id), '[]'::jsonb)
    from private.waitlist_referral_holds h
    join public.waitlist r on r.id = h.referrer_id
    left join public.waitlist f on f.id = h.referred_id
   where include_decided or h.decision is null
$$;

comment on function public.waitlist_held_credits(boolean) is
  'For the owner''s commands (service role): the held referral credits, each with its id, reason, referrer and referred address; undecided only unless include_decided.';

revoke all on function public.waitlist_held_credits(boolean) from public, anon, authenticated, service_role;
grant execute on function public.waitlist_held_credits(boolean) to service_role;

-- A founder's decision on a held credit, once: granted, it counts exactly as an unheld credit;
-- refused, it stays uncounted. A second decision changes nothing (`changed` false), also when two
-- arrive at once (the second waits for the first's row lock, then finds it decided). Null for an
-- unknown id.
create function public.waitlist_decide_credit(hold_id bigint, grant_credit boolean)
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

comment on function public.waitlist_decide_credit(bigint, boolean) is
  'For the owner''s commands (service role): grants (true) or refuses (false) held credit hold_id, once; answers {id, decision, changed}, changed false when it was already decided; null for an unknown id.';

revoke all on function public.waitlist_decide_credit(bigint, boolean) from public, anon, authenticated, service_role;
grant execute on function public.waitlist_decide_credit(bigint, boolean) to service_role;
