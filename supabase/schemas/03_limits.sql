-- Limits: what one network may do through the public key, and how many e-mails we send.
--
-- Why in the database: the endpoints are public by design (every browser holds the anon key), so
-- anything in front of them can be scripted around; a trigger or a security definer function runs
-- for every call the key can make, whatever the client.
--
-- 1. ONE ROW PER REQUEST, ONE ANSWER PER FACT. An API insert may write one row: the second row of
--    a statement is refused (HTTP 400, WL400) before it is checked at all, and the uniqueness check
--    is deferred to the end of the statement, so a multi-row insert never reaches it and its answer
--    cannot depend on whether an address is listed.
-- 2. PER NETWORK (private.waitlist_limits, private.waitlist_api_attempts). Sign-ups, confirmations,
--    link requests and own-data calls count per client network over a sliding window: 50 sign-ups
--    an hour (the settings rows are in 10_settings.sql). The client is cf-connecting-ip (set and
--    overwritten by Cloudflare in front of hosted Supabase), else the LAST X-Forwarded-For hop (the
--    one the gateway appended), never the first, which the client writes
--    (private.waitlist_request_client, the only copy of that rule). An IPv6 client counts in its
--    /64 and also in its /48 and /32, which get v6_48_factor and v6_32_factor times the allowance.
--    Past a limit: PostgREST's custom status, HTTP 429 with Retry-After (private.waitlist_refuse).
--    Not limited: the service-role key and SQL outside the API (no request.headers).
-- 3. DOMAIN BURSTS ARE FLAGGED, NEVER REFUSED. Past domain_burst sign-ups an hour with one
--    (non free-mail) domain, new rows get flag = 'domain_burst' for the owner; nobody can lock a
--    company's domain out.
-- 4. E-MAIL CAPS (private.waitlist_mail_caps, used by 07_outbox.sql): one mailbox that has not
--    confirmed gets at most unproven_per_recipient links per recipient_window; all e-mails together
--    at most emails_per_hour (the rest wait, in order).
-- What is stored: only salted SHA-256 hashes of client addresses (private.waitlist_salt, random per
-- database), pruned after the window. Refused, duplicate and invalid inserts roll their count back.
-- Locks: each sign-up takes one advisory lock for its address, then one per client key, narrowest
-- first, always in that order, so concurrent requests cannot share the last slot or deadlock.
-- The reasoning behind the numbers is in docs/waitlist.md, "Sign-up rate limit".
--
-- TypeScript twin: components/waitlist/join.ts (a 429 is { status: 'rate_limited' }).

create table private.waitlist_limits (
  singleton boolean primary key default true check (singleton),
  window_seconds integer not null check ((window_seconds >= 1) and (window_seconds <= 86400)),
  per_client integer not null check (per_client >= 1),
  domain_burst integer not null,
  v6_48_factor integer not null default 4 check (v6_48_factor >= 1),
  v6_32_factor integer not null default 16 check (v6_32_factor >= 1),

  constraint waitlist_limits_per_domain_check check (domain_burst >= 1)
);

comment on table private.waitlist_limits is
  'Waitlist sign-up limits, read by private.waitlist_rate_limit(); see supabase/schemas/03_limits.sql.';

comment on column private.waitlist_limits.domain_burst is
  'Sign-ups per window with one e-mail domain beyond which new rows are flagged (never refused).';

comment on column private.waitlist_limits.v6_48_factor is
  'An IPv6 /48 may do this many times what one network (/64) may.';

comment on column private.waitlist_limits.v6_32_factor is
  'An IPv6 /32 may do this many times what one network (/64) may.';

revoke all on table private.waitlist_limits from public, anon, authenticated, service_role;

create table private.waitlist_free_mail_domains (
  domain text primary key check (domain = lower(domain) and domain like '%.%')
);

comment on table private.waitlist_free_mail_domains is
  'E-mail domains shared by the public, exempt from the per-domain sign-up limit.';

revoke all on table private.waitlist_free_mail_domains from public, anon, authenticated, service_role;

create table private.waitlist_salt (
  singleton boolean primary key default true check (singleton),
  salt text not null
);

comment on table private.waitlist_salt is
  'Random per database; mixed into the hash of client addresses. Never expose or log it.';

revoke all on table private.waitlist_salt from public, anon, authenticated, service_role;

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

revoke all on table private.waitlist_recent_signups from public, anon, authenticated, service_role;

create table private.waitlist_api_attempts (
  id bigint generated always as identity primary key,
  action text not null,
  client_hash text not null check (client_hash ~ '^[0-9a-f]{64}$'),
  created_at timestamptz not null default now(),

  constraint waitlist_api_attempts_action_check check (action in ('sign_up', 'confirm', 'request_link', 'own_data'))
);

comment on table private.waitlist_api_attempts is
  'Recent confirm and new-link calls per salted client hash, for their rate limits; pruned as it goes.';

create index waitlist_api_attempts_client on private.waitlist_api_attempts (action, client_hash, created_at);

revoke all on table private.waitlist_api_attempts from public, anon, authenticated, service_role;

create table private.waitlist_mail_caps (
  singleton boolean primary key default true check (singleton),
  unproven_per_recipient integer not null check (unproven_per_recipient > 0),
  recipient_window interval not null check (recipient_window > interval '0'),
  emails_per_hour integer not null check (emails_per_hour > 0)
);

comment on table private.waitlist_mail_caps is
  'E-mail caps (one row): per mailbox for links anyone can ask for, and for all e-mails together. Change with an update in a migration.';

revoke all on table private.waitlist_mail_caps from public, anon, authenticated, service_role;

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

revoke all on function private.waitlist_client_key(text) from public, anon, authenticated, service_role;

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

revoke all on function private.waitlist_refuse(text, text, integer) from public, anon, authenticated, service_role;

-- The sign-up trigger: the one-row guard, the address lock, the per-network limit
-- (waitlist_limit_network), then the domain burst flag. Definer rights: it reads and writes
-- private tables the inserting role cannot see.
create function private.waitlist_rate_limit()
returns trigger
language plpgsql
security definer
set search_path = ''
as $$
declare
  request_headers jsonb := nullif(pg_catalog.current_setting('request.headers', true), '')::jsonb;
  request_claims jsonb := nullif(pg_catalog.current_setting('request.jwt.claims', true), '')::jsonb;
  limits private.waitlist_limits;
  rows_in_statement integer;
  v_email_domain text;
  used integer;
begin
  if request_headers is not null and request_claims ->> 'role' is distinct from 'service_role' then
    rows_in_statement := coalesce(nullif(pg_catalog.current_setting('waitlist.statement_rows', true), ''), '0')::integer + 1;
    perform pg_catalog.set_config('waitlist.statement_rows', rows_in_statement::text, true);
    if rows_in_statement > 1 then
      perform private.waitlist_refuse_multirow();
    end if;
  end if;

  perform pg_catalog.pg_advisory_xact_lock(pg_catalog.hashtext('waitlist email'), pg_catalog.hashtext(pg_catalog.lower(new.email)));

  if request_headers is null or request_claims ->> 'role' = 'service_role' then
    return new;
  end if;

  select * into strict limits from private.waitlist_limits;
  perform private.waitlist_limit_network(
    'sign_up', limits.per_client, limits.window_seconds,
    'Too many sign-ups from this network. Please wait a few minutes and try again.', 'sign-ups'
  );

  if pg_catalog.strpos(new.email, '@') > 0 then
    v_email_domain := pg_catalog.split_part(new.email, '@', -1);
    if exists (select 1 from private.waitlist_free_mail_domains f where f.domain = v_email_domain) then
      v_email_domain := null;
    end if;
  end if;
  if v_email_domain is not null then
    select count(*) into used
      from private.waitlist_recent_signups r
     where r.email_domain = v_email_domain and r.created_at > pg_catalog.now() - pg_catalog.make_interval(secs => limits.window_seconds);
    if used >= limits.domain_burst then
      new.flag := 'domain_burst';
    end if;
    insert into private.waitlist_recent_signups (client_hash, email_domain) values (null, v_email_domain);
  end if;
  delete from private.waitlist_recent_signups
   where id in (
     select r.id from private.waitlist_recent_signups r
      where r.created_at <= pg_catalog.now() - pg_catalog.make_interval(secs => limits.window_seconds)
      order by r.created_at limit 100 for update skip locked
   );
  return new;
end
$$;

comment on function private.waitlist_rate_limit() is
  'BEFORE INSERT on public.waitlist: one row per API statement, per-client limit (HTTP 429), domain-burst flag.';

revoke all on function private.waitlist_rate_limit() from public, anon, authenticated, service_role;

-- Fires after waitlist_clean (same timing, name order), so it sees the trimmed e-mail.
create trigger waitlist_rate_limit
  before insert on public.waitlist
  for each row execute function private.waitlist_rate_limit();

-- Resets the row count of each API insert statement (see waitlist_rate_limit).
create function private.waitlist_statement_start()
returns trigger
language plpgsql
set search_path = ''
as $$
begin
  perform pg_catalog.set_config('waitlist.statement_rows', '0', true);
  return null;
end
$$;

revoke all on function private.waitlist_statement_start() from public, anon, authenticated, service_role;

create trigger waitlist_statement_start
  before insert on public.waitlist
  for each statement execute function private.waitlist_statement_start();

create function private.waitlist_refuse_multirow()
returns void
language plpgsql
set search_path = ''
as $$
begin
  raise sqlstate 'PGRST' using
    message = pg_catalog.json_build_object(
      'code', 'WL400',
      'message', 'One sign-up per request.',
      'details', 'Send each sign-up as its own request with a single JSON object.',
      'hint', null
    )::text,
    detail = pg_catalog.json_build_object('status', 400, 'headers', pg_catalog.json_build_object())::text;
end
$$;

revoke all on function private.waitlist_refuse_multirow() from public, anon, authenticated, service_role;

-- A salted hash of a mailbox, for the mail log and the referral ledger: never the address.
create function private.waitlist_mailbox_hash(purpose text, email text)
returns text
language sql
stable
security definer
set search_path = ''
as $$
  select pg_catalog.encode(pg_catalog.sha256(pg_catalog.convert_to(
    (select s.salt from private.waitlist_salt s) || ' ' || purpose || ' ' || waitlist_rules.mailbox_key(email), 'UTF8')), 'hex')
$$;

revoke all on function private.waitlist_mailbox_hash(text, text) from public, anon, authenticated, service_role;

-- The address the platform's edge says the request came from (cf-connecting-ip, else the last X-Forwarded-For hop); null
-- outside the API.
create function private.waitlist_request_client()
returns text
language plpgsql
stable
security definer
set search_path = ''
as $$
declare
  request_headers jsonb := nullif(pg_catalog.current_setting('request.headers', true), '')::jsonb;
begin
  if request_headers is null then
    return null;
  end if;
  return coalesce(
    nullif(pg_catalog.btrim(request_headers ->> 'cf-connecting-ip'), ''),
    nullif(pg_catalog.btrim(pg_catalog.split_part(request_headers ->> 'x-forwarded-for', ',', -1)), '')
  );
end
$$;

revoke all on function private.waitlist_request_client() from public, anon, authenticated, service_role;

-- The salted keys a client counts under, narrowest first (always the same order, so concurrent
-- requests take their locks in one order): its network (an IPv4 address, an IPv6 /64, the same hash
-- whatever the limit), and for IPv6 its /48 and /32 with their larger allowance.
create function private.waitlist_network_keys(client text)
returns table (client_hash text, factor integer, scope text)
language plpgsql
stable
security definer
set search_path = ''
as $$
declare
  salt text := (select s.salt from private.waitlist_salt s);
  limits private.waitlist_limits;
  parsed inet;
begin
  if client is null then
    return;
  end if;
  select * into strict limits from private.waitlist_limits;
  client_hash := pg_catalog.encode(pg_catalog.sha256(pg_catalog.convert_to(salt || private.waitlist_client_key(client), 'UTF8')), 'hex');
  factor := 1;
  scope := 'network';
  return next;
  begin
    parsed := pg_catalog.btrim(client)::inet;
  exception when invalid_text_representation then
    return;
  end;
  if pg_catalog.family(parsed) <> 6 or parsed << '::ffff:0.0.0.0/96'::inet then
    return;
  end if;
  client_hash := pg_catalog.encode(pg_catalog.sha256(pg_catalog.convert_to(salt || pg_catalog.network(pg_catalog.set_masklen(parsed, 48))::text, 'UTF8')), 'hex');
  factor := limits.v6_48_factor;
  scope := 'network range (IPv6 /48)';
  return next;
  client_hash := pg_catalog.encode(pg_catalog.sha256(pg_catalog.convert_to(salt || pg_catalog.network(pg_catalog.set_masklen(parsed, 32))::text, 'UTF8')), 'hex');
  factor := limits.v6_32_factor;
  scope := 'network range (IPv6 /32)';
  return next;
end
$$;

revoke all on function private.waitlist_network_keys(text) from public, anon, authenticated, service_role;

-- Counts this request against `per_network` calls of `action` per `window_seconds`, under each of
-- its client's keys; HTTP 429 (with Retry-After) when one of them is spent. Nothing outside the API.
create function private.waitlist_limit_network(p_action text, per_network integer, window_seconds integer, refusal text, what text)
returns void
language plpgsql
security definer
set search_path = ''
as $$
declare
  window_start timestamptz := pg_catalog.now() - pg_catalog.make_interval(secs => window_seconds);
  window_text text := case
    when window_seconds % 3600 = 0 and window_seconds > 3600 then pg_catalog.format('%s hours', window_seconds / 3600)
    when window_seconds = 3600 then 'hour'
    when window_seconds % 60 = 0 then pg_catalog.format('%s minutes', window_seconds / 60)
    else pg_catalog.format('%s seconds', window_seconds)
  end;
  key record;
  used integer;
  oldest timestamptz;
begin
  for key in select * from private.waitlist_network_keys(private.waitlist_request_client()) loop
    perform pg_catalog.pg_advisory_xact_lock(pg_catalog.hashtext('waitlist ' || p_action), pg_catalog.hashtext(key.client_hash));
    select count(*), min(a.created_at) into used, oldest
      from private.waitlist_api_attempts a
     where a.action = p_action and a.client_hash = key.client_hash and a.created_at > window_start;
    if used >= per_network * key.factor then
      perform private.waitlist_refuse(
        refusal,
        pg_catalog.format('At most %s %s per %s from one %s.', per_network * key.factor, what, window_text, key.scope),
        greatest(1, pg_catalog.ceil(extract(epoch from oldest + pg_catalog.make_interval(secs => window_seconds) - pg_catalog.now())))::integer
      );
    end if;
    insert into private.waitlist_api_attempts (action, client_hash) values (p_action, key.client_hash);
  end loop;
  delete from private.waitlist_api_attempts
   where id in (
     select a.id from private.waitlist_api_attempts a
      where a.created_at <= pg_catalog.now() - interval '1 day'
         or (a.action = p_action and a.created_at <= window_start)
      order by a.created_at limit 200 for update skip locked
   );
end
$$;

revoke all on function private.waitlist_limit_network(text, integer, integer, text, text) from public, anon, authenticated, service_role;
