-- Sign-ups a founder can trust (issue #13): one spelling per address, one row per request, one
-- answer per fact, a per-network limit keyed on what the client cannot write, no domain lock-out.
--
-- 1. ONE ADDRESS, ONE SPELLING. waitlist_clean() now normalises the e-mail of every row, whoever
--    writes it: invisible characters stripped, NFKC, trimmed, domain lower-cased and IDNA-encoded
--    (punycode). lib/waitlist/email.ts does exactly the same in the browser; the character classes
--    below are copied verbatim from it, and tests/integration/waitlist-email-agree.test.ts checks
--    the two against each other (and the punycode against Node's url.domainToASCII).
--    waitlist_email_format now refuses what is not a plausible address: no spaces, controls,
--    quotes, brackets, angle brackets or bidirectional controls, a domain of valid labels.
--    Uniqueness is lower(email) of the normalised value.
--
-- 2. ONE ROW PER REQUEST, ONE ANSWER PER FACT. An API insert (anon or authenticated) may write one
--    row. Postgres cannot see a request body before its first row, so:
--      * the uniqueness check is a DEFERRABLE constraint, which Postgres checks at the end of the
--        statement instead of row by row;
--      * the second row of a statement is refused (HTTP 400, WL400) before it is checked at all.
--    A multi-row insert therefore never reaches the duplicate check, and its answer (400 for a
--    broken first row, else WL400) cannot depend on whether an address is listed. Before this, a
--    body [candidate, invalid row] answered 409 when the candidate was listed and 400 when not.
--    A single row still answers 201, 409 or 400: one request, one fact, and a "not listed" answer
--    stores the row and counts against the network's limit.
--    Each sign-up takes one advisory lock for its address, then one for its client, always in that
--    order: concurrent inserts can no longer take locks in crossed orders. The deadlocks seen on
--    Postgres 15 (crossed two-row inserts; and two simultaneous inserts of one address, whose
--    deferred uniqueness checks waited for each other) are gone
--    (tests/integration/waitlist-real-postgres.test.ts).
--
-- 3. LIMITS KEYED ON WHAT THE CLIENT CANNOT WRITE. The client address is
--      cf-connecting-ip  (set and overwritten by Cloudflare, the edge in front of hosted Supabase;
--                         Supabase discussion #34647), else
--      the LAST address of X-Forwarded-For (the hop the gateway appended), never the first, which
--                         the client writes. X-Real-IP is no longer read.
--    IPv6 still counts per /64.
--    New numbers (private.waitlist_limits):
--      window_seconds = 3600  one hour.
--      per_client     = 50    sign-ups per network address per hour: 50 colleagues behind one office
--                             address all get in, the 51st sign-up from one address within the hour
--                             is refused (429).
--      domain_burst   = 20    no longer a cap. Past 20 sign-ups with one (non free-mail) domain within
--                             the hour, new rows are stored with flag = 'domain_burst' for the owner
--                             to review (waitlist:list shows it). Nobody can lock a company's domain
--                             out any more: a person from a network that has not been abusive always
--                             gets in. The trade-off is in supabase/README.md.
--
-- Never edit this file once applied; change limits in a later migration.

create schema if not exists waitlist_rules;
comment on schema waitlist_rules is
  'Pure functions behind the waitlist field rules; not exposed through the API (only public is).';
revoke all on schema waitlist_rules from public;
-- The inserting role evaluates the trigger and the check constraints, so it calls these.
grant usage on schema waitlist_rules to anon, authenticated, service_role;

-- RFC 3492 punycode of one label, without the xn-- prefix. Mirrors punycodeEncode() in
-- lib/waitlist/email.ts step for step.
create function waitlist_rules.punycode(label text)
returns text
language plpgsql
immutable
strict
parallel safe
set search_path = ''
as $$
declare
  points integer[] := array(
    select pg_catalog.ascii(c.ch) from pg_catalog.unnest(pg_catalog.string_to_array(label, null)) with ordinality as c(ch, i) order by c.i
  );
  total integer := coalesce(pg_catalog.array_length(points, 1), 0);
  output text := '';
  basic integer;
  handled integer;
  n integer := 128;
  delta bigint := 0;
  bias integer := 72;
  m integer;
  p integer;
  q bigint;
  k integer;
  t integer;
  d bigint;
  first boolean;
begin
  foreach p in array points loop
    if p < 128 then output := output || pg_catalog.chr(p); end if;
  end loop;
  basic := pg_catalog.length(output);
  handled := basic;
  if basic > 0 then output := output || '-'; end if;
  while handled < total loop
    select min(x) into m from pg_catalog.unnest(points) as x where x >= n;
    delta := delta + (m - n)::bigint * (handled + 1);
    n := m;
    foreach p in array points loop
      if p < n then delta := delta + 1; end if;
      if p = n then
        q := delta;
        k := 36;
        loop
          t := case when k <= bias then 1 when k >= bias + 26 then 26 else k - bias end;
          exit when q < t;
          d := t + (q - t) % (36 - t);
          output := output || pg_catalog.chr((case when d < 26 then 97 + d else 22 + d end)::integer);
          q := (q - t) / (36 - t);
          k := k + 36;
        end loop;
        output := output || pg_catalog.chr((case when q < 26 then 97 + q else 22 + q end)::integer);
        -- adapt(delta, handled + 1, handled = basic)
        first := handled = basic;
        d := case when first then delta / 700 else delta / 2 end;
        d := d + d / (handled + 1);
        k := 0;
        while d > 455 loop
          d := d / 35;
          k := k + 36;
        end loop;
        bias := k + (36 * d) / (d + 38);
        delta := 0;
        handled := handled + 1;
      end if;
    end loop;
    delta := delta + 1;
    n := n + 1;
  end loop;
  return output;
end
$$;

-- normalizeWaitlistEmail() of lib/waitlist/email.ts: strip invisibles, NFKC, strip, trim, then the
-- domain lower-cased with each non-ASCII label punycoded (unless it holds a forbidden character,
-- which then fails the format check as it is).
create function waitlist_rules.normalize_email(value text)
returns text
language plpgsql
immutable
strict
parallel safe
set search_path = ''
as $$
declare
  invisible constant text := '[\u00AD\u034F\u180B-\u180F\u200B-\u200D\u2060-\u2064\uFE00-\uFE0F\uFEFF]';
  forbidden constant text := '[\u0000-\u0020\u007F-\u00A0\u00AB\u00BB\u061C\u1680\u2000-\u200F\u2018-\u201F\u2028-\u202F\u2039\u203A\u205F-\u206F\u2329\u232A\u27E8-\u27EF\u3000\u3008-\u3011\u3014-\u301B\uE000-\uF8FF\uFFF0-\uFFFF]';
  cleaned text;
  at integer;
  domain text;
  labels text[];
  label text;
begin
  cleaned := pg_catalog.regexp_replace(value, invisible, '', 'g');
  cleaned := pg_catalog.normalize(cleaned, 'NFKC');
  cleaned := public.waitlist_trim(pg_catalog.regexp_replace(cleaned, invisible, '', 'g'));
  at := pg_catalog.length(cleaned) - pg_catalog.strpos(pg_catalog.reverse(cleaned), '@') + 1;
  if pg_catalog.strpos(cleaned, '@') = 0 then
    return cleaned;
  end if;
  domain := pg_catalog.replace(pg_catalog.lower(pg_catalog.substr(cleaned, at + 1)), U&'\3002', '.');
  labels := '{}';
  foreach label in array pg_catalog.string_to_array(domain, '.') loop
    if label ~ '^[\u0001-\u007F]*$' or label ~ forbidden then
      labels := labels || label;
    else
      labels := labels || ('xn--' || waitlist_rules.punycode(label));
    end if;
  end loop;
  return pg_catalog.substr(cleaned, 1, at - 1) || '@' || pg_catalog.array_to_string(labels, '.');
end
$$;

-- isPlausibleWaitlistEmail() of lib/waitlist/email.ts, on the stored (normalised) value. The
-- pattern is WAITLIST_EMAIL_PATTERN_SOURCE, verbatim.
create function waitlist_rules.email_plausible(email text)
returns boolean
language sql
immutable
strict
parallel safe
set search_path = ''
return email ~ '^[^\u0000-\u0020\u007F-\u00A0\u00AB\u00BB\u061C\u1680\u2000-\u200F\u2018-\u201F\u2028-\u202F\u2039\u203A\u205F-\u206F\u2329\u232A\u27E8-\u27EF\u3000\u3008-\u3011\u3014-\u301B\uE000-\uF8FF\uFFF0-\uFFFF\u0022\u0028\u0029\u002C\u002E\u003A\u003B\u003C\u003E\u0040\u005B\u005C\u005D\u0060\u007B\u007C\u007D]+(?:\.[^\u0000-\u0020\u007F-\u00A0\u00AB\u00BB\u061C\u1680\u2000-\u200F\u2018-\u201F\u2028-\u202F\u2039\u203A\u205F-\u206F\u2329\u232A\u27E8-\u27EF\u3000\u3008-\u3011\u3014-\u301B\uE000-\uF8FF\uFFF0-\uFFFF\u0022\u0028\u0029\u002C\u002E\u003A\u003B\u003C\u003E\u0040\u005B\u005C\u005D\u0060\u007B\u007C\u007D]+)*@(?:[a-z0-9](?:[a-z0-9-]{0,61}[a-z0-9])?\.)+[a-z](?:[a-z0-9-]{0,61}[a-z0-9])?$'
  and pg_catalog.char_length(pg_catalog.split_part(email, '@', -1)) <= 253;

revoke all on all functions in schema waitlist_rules from public;
grant execute on all functions in schema waitlist_rules to anon, authenticated, service_role;

-- The trim trigger now normalises the e-mail too (still for every writer, on insert and update).
create or replace function public.waitlist_clean()
returns trigger
language plpgsql
set search_path = ''
as $$
begin
  new.name := public.waitlist_trim(new.name);
  new.email := waitlist_rules.normalize_email(new.email);
  new.project := public.waitlist_trim(new.project);
  return new;
end
$$;

-- For the owner: why a row deserves a second look. Set only by the rate-limit trigger; the API
-- roles cannot write it (anon's insert grant names its columns).
alter table public.waitlist add column flag text constraint waitlist_flag_known check (flag in ('domain_burst'));
comment on column public.waitlist.flag is
  '''domain_burst'' when the row arrived during an unusual burst of sign-ups with its e-mail domain; null otherwise.';

-- Existing rows get the new spelling (the update fires waitlist_clean). Rows that then collide are
-- one address written two ways: the earliest sign-up is kept.
-- The old format rule goes first: NFKC can turn a stored value into one it would refuse.
alter table public.waitlist drop constraint waitlist_email_format;
drop index public.waitlist_email_unique;
update public.waitlist set email = email;
delete from public.waitlist later
 using public.waitlist earlier
 where pg_catalog.lower(later.email) = pg_catalog.lower(earlier.email)
   and (later.created_at, later.id) > (earlier.created_at, earlier.id);

-- Deferrable (initially immediate): checked at the end of the statement, after the one-row guard.
alter table public.waitlist add column email_key text generated always as (pg_catalog.lower(email)) stored;
alter table public.waitlist
  add constraint waitlist_email_unique unique (email_key) deferrable initially immediate;
comment on column public.waitlist.email_key is 'lower(email): "already on the waitlist" is this column''s unique constraint.';

-- NOT VALID: rows stored under the old, looser rule stay (the owner can list them with
-- `select * from public.waitlist where not waitlist_rules.email_plausible(email)`); every new or
-- changed row must pass.
alter table public.waitlist
  add constraint waitlist_email_format check (waitlist_rules.email_plausible(email)) not valid;

-- ---------------------------------------------------------------------------
-- Limits

alter table private.waitlist_limits rename column per_domain to domain_burst;
comment on column private.waitlist_limits.domain_burst is
  'Sign-ups per window with one e-mail domain beyond which new rows are flagged (never refused).';
update private.waitlist_limits set window_seconds = 3600, per_client = 50, domain_burst = 20;

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

create or replace function private.waitlist_rate_limit()
returns trigger
language plpgsql
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
  rows_in_statement integer;
  used integer;
  oldest timestamptz;
begin
  -- One row per API request, refused before this row is checked (and before any lock is taken).
  if request_headers is not null and request_claims ->> 'role' is distinct from 'service_role' then
    rows_in_statement := coalesce(nullif(pg_catalog.current_setting('waitlist.statement_rows', true), ''), '0')::integer + 1;
    perform pg_catalog.set_config('waitlist.statement_rows', rows_in_statement::text, true);
    if rows_in_statement > 1 then
      perform private.waitlist_refuse_multirow();
    end if;
  end if;

  -- One sign-up per address at a time, for every writer. The deferred uniqueness check of two
  -- simultaneous inserts of one address would otherwise wait for each other: a deadlock (HTTP
  -- 500) where the second person should hear "already on the list" (found on Postgres 15).
  -- Locks are always taken address first, then client, one of each per sign-up: no cycles.
  perform pg_catalog.pg_advisory_xact_lock(pg_catalog.hashtext('waitlist email'), pg_catalog.hashtext(pg_catalog.lower(new.email)));

  -- Outside the API (no request): the owner's SQL, imports, migrations.
  if request_headers is null or request_claims ->> 'role' = 'service_role' then
    return new;
  end if;

  select * into strict limits from private.waitlist_limits;
  window_start := pg_catalog.now() - pg_catalog.make_interval(secs => limits.window_seconds);
  window_text := case
    when limits.window_seconds % 3600 = 0 and limits.window_seconds > 3600 then pg_catalog.format('%s hours', limits.window_seconds / 3600)
    when limits.window_seconds = 3600 then 'hour'
    when limits.window_seconds % 60 = 0 then pg_catalog.format('%s minutes', limits.window_seconds / 60)
    else pg_catalog.format('%s seconds', limits.window_seconds)
  end;

  -- What the client cannot write: the edge's cf-connecting-ip, else the gateway's own (last) hop.
  client := coalesce(
    nullif(pg_catalog.btrim(request_headers ->> 'cf-connecting-ip'), ''),
    nullif(pg_catalog.btrim(pg_catalog.split_part(request_headers ->> 'x-forwarded-for', ',', -1)), '')
  );
  if client is not null then
    v_client_hash := pg_catalog.encode(
      pg_catalog.sha256(pg_catalog.convert_to((select s.salt from private.waitlist_salt s) || private.waitlist_client_key(client), 'UTF8')),
      'hex'
    );
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

  -- new.email is already normalised by waitlist_clean (triggers fire in name order).
  if pg_catalog.strpos(new.email, '@') > 0 then
    v_email_domain := pg_catalog.split_part(new.email, '@', -1);
    if exists (select 1 from private.waitlist_free_mail_domains f where f.domain = v_email_domain) then
      v_email_domain := null;
    end if;
  end if;
  if v_email_domain is not null then
    -- A flag, not a refusal: no lock, an approximate count is enough.
    select count(*) into used
      from private.waitlist_recent_signups r
     where r.email_domain = v_email_domain and r.created_at > window_start;
    if used >= limits.domain_burst then
      new.flag := 'domain_burst';
    end if;
  end if;

  if v_client_hash is not null or v_email_domain is not null then
    insert into private.waitlist_recent_signups (client_hash, email_domain) values (v_client_hash, v_email_domain);
  end if;

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
  'BEFORE INSERT on public.waitlist: one row per API statement, per-client limit (HTTP 429), domain-burst flag.';

create trigger waitlist_statement_start
  before insert on public.waitlist
  for each statement execute function private.waitlist_statement_start();

revoke all on all functions in schema private from public, anon, authenticated, service_role;
