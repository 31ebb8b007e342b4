-- Referral credit only for real people (issue #42): one person with a disposable-mail service could
-- confirm ten fresh addresses through their own referral link and move 10 x 5 places up. Like the
-- referral tools that score referrals (disposable domains, same network, velocity), a suspicious
-- credit is HELD rather than the sign-up refused, so the cheat learns nothing: the sign-up, the
-- confirmation and every answer are as before, and the held credit moves nobody until a founder
-- grants it. tests/integration/waitlist-referral-holds.test.ts runs it on PGlite and PostgreSQL.
--
-- 1. THE SIGNALS, each on by default, in the one settings row (private.waitlist_referral_settings):
--    the referred address is at a disposable-mail domain or a subdomain of one
--    (private.waitlist_disposable_domains: its rows come from the npm package
--    disposable-email-domains-js through `npm run waitlist:disposable-domains`, which writes the
--    next migration), or at a domain of the founders' own blocked_domains; the referred person
--    signed up from the referrer's network (the salted key the rate limits use) within
--    same_network_seconds of the referrer's sign-up; the referrer already had velocity_max
--    referrals confirmed within velocity_seconds.
-- 2. WHAT IS STORED. Each API sign-up's salted network key, with its entry, for
--    same_network_seconds at most (an hour, and never longer: the setting's check keeps the privacy
--    page's promise), pruned as sign-ups come; of a referred entry, only the verdict "same network".
--    Each held credit: its ledger row (so one credit per mailbox still holds) and a hold with its
--    reason and the founders' decision.
-- 3. THE DECISION. public.waitlist_held_credits lists them; public.waitlist_decide_credit grants
--    (the referrer's referral_credits + 1, exactly what an unheld credit does) or refuses, once.
--
-- Never edit this file once applied; change it with a later migration.

-- ---------------------------------------------------------------------------
-- 1. Settings

alter table private.waitlist_referral_settings
  add column hold_disposable boolean not null default true,
  add column blocked_domains text[] not null default '{}'::text[],
  add column hold_same_network boolean not null default true,
  add column same_network_seconds integer not null default 3600 check ((same_network_seconds >= 0) and (same_network_seconds <= 3600)),
  add column hold_velocity boolean not null default true,
  add column velocity_max integer not null default 5 check (velocity_max >= 0),
  add column velocity_seconds integer not null default 3600 check ((velocity_seconds >= 1) and (velocity_seconds <= 86400));

comment on table private.waitlist_referral_settings is
  'Own-data limits, places per referral and when a referral credit is held (one row). Change them with an update in a migration.';

comment on column private.waitlist_referral_settings.blocked_domains is
  'The founders'' own blocklist: a credit earned by an address at one of these domains (or a subdomain) is held.';

comment on column private.waitlist_referral_settings.same_network_seconds is
  'A referred person signing up from the referrer''s network within this many seconds of the referrer''s sign-up earns a held credit; also how long sign-up network keys are kept.';

comment on column private.waitlist_referral_settings.velocity_max is
  'A credit is held when the referrer already had this many referrals confirmed within velocity_seconds.';

comment on column public.waitlist.referral_credits is
  'How many people who came through this entry''s link have confirmed (kept when they erase themselves), less the credits held for the founders (private.waitlist_referral_holds) and not granted.';

-- ---------------------------------------------------------------------------
-- 2. Tables

comment on table private.waitlist_referral_ledger is
  'One row per referral credit, counted unless held (private.waitlist_referral_holds): the referrer, a salted fingerprint of the referred mailbox (one credit per mailbox, ever) and the referred entry while it exists.';

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

-- ---------------------------------------------------------------------------
-- 3. Functions: the verdicts, the credit, the founders' decision

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
