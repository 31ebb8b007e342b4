-- Rate limit for public waitlist sign-ups.
--
-- Why in the database: the insert endpoint is public by design (every browser holds the anon
-- key), so anything in front of it can be scripted around. A BEFORE INSERT trigger runs for
-- every insert the anon key can make, whatever the client.
--
-- THE LIMITS (seeded below into private.waitlist_limits; all counted over one sliding window):
--   window_seconds = 600  the last 10 minutes.
--   per_client     = 5    sign-ups from one network address. A person signs up once; 5 leaves
--                         room for a household or a small office behind one address, and a
--                         retry after a typo, while a script gets 5 rows per 10 minutes.
--   per_domain     = 50   sign-ups with one e-mail domain (acme.com). Catches a script that
--                         rotates addresses but not its catch-all domain. A team of 50 joining
--                         within 10 minutes is not plausible for a waitlist.
--   Free-mail domains (private.waitlist_free_mail_domains: gmail.com, outlook.com, ...) are
--   EXEMPT from the per-domain limit. Millions of unrelated people share them: any cap there is
--   a lever for one attacker to lock every genuine Gmail user out of the list, and a cap high
--   enough to avoid that (thousands) would stop nothing. Sign-ups with them still count per client.
--
-- Who is limited:
--   * Requests through the API (PostgREST sets request.headers) with the anon or an
--     authenticated key. The client is the first address of X-Forwarded-For, as set by the
--     Supabase gateway, else X-Real-IP; with neither, only the per-domain limit applies.
--     IPv6 addresses count per /64 (one customer's network), IPv4-mapped IPv6 as IPv4.
--   * NOT limited: the service_role key, and SQL run outside the API (the owner in the SQL
--     editor, imports, migrations), which has no request.headers.
--
-- What is stored: only a salted SHA-256 of the client's address, never the address, with the
-- e-mail domain and the time, in private.waitlist_recent_signups. The salt is random per
-- database (generated once below). Note what the salt buys: without it, anyone with the
-- table could hash all 2^32 IPv4 addresses and read the addresses back in minutes; with it, they
-- also need the salt. Rows older than the window are pruned by the trigger itself, so the table
-- holds about one window of sign-ups and a hash never outlives it by much.
--
-- Refused and failed inserts do not count: the trigger records a sign-up in the same
-- transaction as the row, so a 429, a duplicate (23505, HTTP 409) or a broken rule (23514, HTTP
-- 400) rolls its record back too. A flood therefore cannot grow the table, and a client that is
-- refused can try again as soon as its oldest counted sign-up leaves the window (Retry-After).
--
-- The refusal is PostgREST's "RAISE SQLSTATE 'PGRST'": HTTP 429, header Retry-After (seconds
-- until a retry can succeed), and a PostgREST-shaped body, e.g.
--   {"code":"WL429","message":"Too many sign-ups from this network. Please wait a few minutes
--    and try again.","details":"At most 5 sign-ups per 10 minutes from one network.","hint":null}
-- lib/waitlist/join.ts maps any 429 to { status: 'rate_limited' }.
--
-- Concurrency: sign-ups from one client (and then per domain) are serialised with
-- transaction-scoped advisory locks, so simultaneous requests cannot all count the same free
-- slot. This relies on READ COMMITTED (PostgREST's default for writes): each statement in the
-- trigger sees what the previous lock holder committed. Locks are always taken client first,
-- then domain; only multi-row inserts from different clients could ever deadlock each other,
-- and a single-row sign-up (what the site sends) can never be the victim.
--
-- At its limit a client is refused even for an address that is already on the list (429, not
-- 409): answering 409 there would give a scripted client an unlimited "is this e-mail on the
-- list?" oracle. Under the limit a duplicate is still 23505 / HTTP 409, as before.
--
-- HOW TO CHANGE THE LIMITS: add a later migration, e.g.
--   update private.waitlist_limits set per_client = 10;
--   insert into private.waitlist_free_mail_domains (domain) values ('example-mail.com');
-- Changing how they are applied means a later migration with
-- `create or replace function private.waitlist_rate_limit()`. Never edit this file: it may
-- already be applied to real projects. Update supabase/README.md with the new numbers.
--
-- Caveat: X-Forwarded-For's first address is what the client's side of the chain wrote. Kong
-- (self-hosted, `supabase start`) appends the peer to whatever the request carried, so a client
-- that sends its own X-Forwarded-For chooses that first address. Check on the hosted project
-- what arrives (see supabase/README.md) before relying on the per-client limit alone; the
-- per-domain limit does not depend on it.

create schema if not exists private;
comment on schema private is 'Not exposed through the API: no usage for anon or authenticated.';
revoke all on schema private from public, anon, authenticated;

create table private.waitlist_limits (
  -- One row: a primary key that can only be true.
  singleton boolean primary key default true check (singleton),
  window_seconds integer not null check (window_seconds between 1 and 86400),
  per_client integer not null check (per_client >= 1),
  per_domain integer not null check (per_domain >= 1)
);
comment on table private.waitlist_limits is
  'Waitlist sign-up limits, read by private.waitlist_rate_limit(); see migration 20261122140000.';

insert into private.waitlist_limits (window_seconds, per_client, per_domain) values (600, 5, 50);

create table private.waitlist_free_mail_domains (
  domain text primary key check (domain = lower(domain) and domain like '%.%')
);
comment on table private.waitlist_free_mail_domains is
  'E-mail domains shared by the public, exempt from the per-domain sign-up limit.';

insert into private.waitlist_free_mail_domains (domain) values
  ('gmail.com'), ('googlemail.com'),
  ('outlook.com'), ('hotmail.com'), ('hotmail.co.uk'), ('hotmail.fr'), ('live.com'), ('msn.com'),
  ('yahoo.com'), ('yahoo.co.uk'), ('yahoo.fr'), ('ymail.com'), ('aol.com'),
  ('icloud.com'), ('me.com'), ('mac.com'),
  ('proton.me'), ('protonmail.com'), ('pm.me'), ('tutanota.com'), ('tuta.io'),
  ('gmx.com'), ('gmx.de'), ('gmx.net'), ('web.de'), ('t-online.de'), ('mail.com'),
  ('fastmail.com'), ('hey.com'), ('zoho.com'),
  ('yandex.com'), ('yandex.ru'), ('mail.ru'),
  ('qq.com'), ('163.com'), ('126.com'), ('naver.com');

create table private.waitlist_salt (
  singleton boolean primary key default true check (singleton),
  salt text not null
);
comment on table private.waitlist_salt is
  'Random per database; mixed into the hash of client addresses. Never expose or log it.';

insert into private.waitlist_salt (salt) values (gen_random_uuid()::text);

create table private.waitlist_recent_signups (
  id bigint generated always as identity primary key,
  -- Salted SHA-256 (hex) of the client's address; null when the request named no client.
  client_hash text check (client_hash ~ '^[0-9a-f]{64}$'),
  -- Lower-cased; null for exempt (free-mail) domains.
  email_domain text,
  created_at timestamptz not null default now()
);
comment on table private.waitlist_recent_signups is
  'Committed sign-ups of the current window, for the rate limit; pruned by the trigger.';

create index waitlist_recent_signups_client on private.waitlist_recent_signups (client_hash, created_at)
  where client_hash is not null;
create index waitlist_recent_signups_domain on private.waitlist_recent_signups (email_domain, created_at)
  where email_domain is not null;
create index waitlist_recent_signups_created_at on private.waitlist_recent_signups (created_at);

-- The rate-limit key of an address: one IPv4 address, or an IPv6 /64 (a single customer
-- usually gets a whole /64, so per-address counting would let them rotate freely).
-- Text that is not an address (a port, a proxy's "unknown") is used lower-cased as it is.
create function private.waitlist_client_key(address text)
returns text
language plpgsql
immutable
strict
set search_path = ''
as $$
declare
  parsed inet;
begin
  -- An exception block rather than pg_input_is_valid(), which needs Postgres 16.
  begin
    parsed := pg_catalog.btrim(address)::inet;
  exception when invalid_text_representation then
    return pg_catalog.lower(pg_catalog.btrim(address));
  end;
  if pg_catalog.family(parsed) = 6 and parsed << '::ffff:0.0.0.0/96'::inet then
    parsed := '0.0.0.0'::inet + (parsed - '::ffff:0.0.0.0'::inet);
  end if;
  if pg_catalog.family(parsed) = 6 then
    return pg_catalog.network(pg_catalog.set_masklen(parsed, 64))::text;
  end if;
  return pg_catalog.host(parsed);
end
$$;

-- Raises PostgREST's custom-status error. The message and detail must be JSON objects of
-- exactly this shape, or PostgREST answers 500 PGRST121 instead.
create function private.waitlist_refuse(refusal text, limit_text text, retry_after_seconds integer)
returns void
language plpgsql
set search_path = ''
as $$
begin
  raise sqlstate 'PGRST' using
    message = pg_catalog.json_build_object('code', 'WL429', 'message', refusal, 'details', limit_text, 'hint', null)::text,
    detail = pg_catalog.json_build_object(
      'status', 429,
      'headers', pg_catalog.json_build_object('Retry-After', retry_after_seconds::text)
    )::text;
end
$$;

create function private.waitlist_rate_limit()
returns trigger
language plpgsql
-- Definer rights: it reads and writes private tables that the inserting role cannot see.
security definer
set search_path = ''
as $$
declare
  request_headers jsonb := nullif(pg_catalog.current_setting('request.headers', true), '')::jsonb;
  request_claims jsonb := nullif(pg_catalog.current_setting('request.jwt.claims', true), '')::jsonb;
  limits private.waitlist_limits;
  window_start timestamptz;
  window_text text;
  client text;
  v_client_hash text;
  v_email_domain text;
  used integer;
  oldest timestamptz;
begin
  -- Outside the API (no request): the owner's SQL, imports, migrations. A transaction-local
  -- setting reads back as '' once its transaction is over, hence the nullif above.
  if request_headers is null or request_claims ->> 'role' = 'service_role' then
    return new;
  end if;

  select * into strict limits from private.waitlist_limits;
  window_start := pg_catalog.now() - pg_catalog.make_interval(secs => limits.window_seconds);
  window_text := case
    when limits.window_seconds % 60 = 0 then pg_catalog.format('%s minutes', limits.window_seconds / 60)
    else pg_catalog.format('%s seconds', limits.window_seconds)
  end;

  client := coalesce(
    nullif(pg_catalog.btrim(pg_catalog.split_part(request_headers ->> 'x-forwarded-for', ',', 1)), ''),
    nullif(pg_catalog.btrim(request_headers ->> 'x-real-ip'), '')
  );
  if client is not null then
    v_client_hash := pg_catalog.encode(
      pg_catalog.sha256(pg_catalog.convert_to((select s.salt from private.waitlist_salt s) || private.waitlist_client_key(client), 'UTF8')),
      'hex'
    );
    -- Held until commit: the next sign-up of this client counts only after this one is
    -- committed (and so visible) or rolled back.
    perform pg_catalog.pg_advisory_xact_lock(pg_catalog.hashtext('waitlist client'), pg_catalog.hashtext(v_client_hash));
    select count(*), min(r.created_at) into used, oldest
      from private.waitlist_recent_signups r
     where r.client_hash = v_client_hash and r.created_at > window_start;
    if used >= limits.per_client then
      perform private.waitlist_refuse(
        'Too many sign-ups from this network. Please wait a few minutes and try again.',
        pg_catalog.format('At most %s sign-ups per %s from one network.', limits.per_client, window_text),
        greatest(1, pg_catalog.ceil(extract(epoch from oldest + pg_catalog.make_interval(secs => limits.window_seconds) - pg_catalog.now())))::integer
      );
    end if;
  end if;

  -- new.email is already trimmed by waitlist_clean (triggers fire in name order); a value
  -- without exactly one @ fails waitlist_email_format right after this trigger anyway.
  if new.email like '%@%' then
    v_email_domain := pg_catalog.lower(pg_catalog.split_part(new.email, '@', -1));
    if exists (select 1 from private.waitlist_free_mail_domains f where f.domain = v_email_domain) then
      v_email_domain := null;
    end if;
  end if;
  if v_email_domain is not null then
    perform pg_catalog.pg_advisory_xact_lock(pg_catalog.hashtext('waitlist domain'), pg_catalog.hashtext(v_email_domain));
    select count(*), min(r.created_at) into used, oldest
      from private.waitlist_recent_signups r
     where r.email_domain = v_email_domain and r.created_at > window_start;
    if used >= limits.per_domain then
      perform private.waitlist_refuse(
        'Too many sign-ups with this e-mail domain. Please wait a few minutes and try again.',
        pg_catalog.format('At most %s sign-ups per %s with one e-mail domain.', limits.per_domain, window_text),
        greatest(1, pg_catalog.ceil(extract(epoch from oldest + pg_catalog.make_interval(secs => limits.window_seconds) - pg_catalog.now())))::integer
      );
    end if;
  end if;

  if v_client_hash is not null or v_email_domain is not null then
    insert into private.waitlist_recent_signups (client_hash, email_domain) values (v_client_hash, v_email_domain);
  end if;

  -- Keeps the table at about one window of rows. SKIP LOCKED: concurrent sign-ups never wait
  -- for each other here; each removes at most 100 expired rows, more than the one it adds.
  delete from private.waitlist_recent_signups
   where id in (
     select r.id from private.waitlist_recent_signups r
      where r.created_at <= window_start
      order by r.created_at
      limit 100
      for update skip locked
   );

  return new;
end
$$;

comment on function private.waitlist_rate_limit() is
  'BEFORE INSERT on public.waitlist: per-client and per-domain sign-up limits, HTTP 429 past them.';

-- Fires after waitlist_clean (same timing, name order), so it sees the trimmed e-mail.
create trigger waitlist_rate_limit
  before insert on public.waitlist
  for each row execute function private.waitlist_rate_limit();

-- Nothing here is for the API roles. Trigger functions run whoever inserts; the grants below
-- only stop direct calls and reads.
revoke all on all tables in schema private from public, anon, authenticated, service_role;
revoke all on all functions in schema private from public, anon, authenticated, service_role;
