-- Our e-mails cannot be turned against anyone (issue #26). A red-team pass found the tokens sound
-- and the abuse running through what they guard; each numbered part stops one attack at its root.
-- tests/integration/waitlist-abuse.test.ts runs each attack on PGlite and on a real PostgreSQL.
--
-- 1. PLAIN TEXT. A name or company is plain text: no control, line-break, bidi-control or
--    invisible characters (waitlist_rules.plain_text, mirrored by components/waitlist/rules.ts).
--    Joiners (ZWJ, ZWNJ) stay: scripts such as Persian and emoji sequences need them. Rows stored
--    before are kept (NOT VALID); every new or changed row must pass. The confirmation e-mail no
--    longer shows anything a visitor typed (components/waitlist/outbox): a relayed sign-up can
--    make us send only our own words, to an address that has not proven it wants them.
-- 2. E-MAIL CAPS. private.waitlist_mail_log records each e-mail when it is first claimed, by a
--    salted hash of its recipient's MAILBOX (see 3), never the address. A third party can make us
--    e-mail one mailbox that has not confirmed (confirmation and access links) at most
--    `unproven_per_recipient` times per `recipient_window` (3 a day); the claim skips the rest,
--    with a note. All e-mails together are held to `emails_per_hour` (500): past it they wait, in
--    order, for the next hour; none is dropped. One claim at a time decides (an advisory lock), so
--    concurrent dispatchers cannot both spend the last of a cap.
-- 3. ONE MAILBOX, ONE KEY. waitlist_rules.mailbox_key folds what the big providers document as one
--    inbox: googlemail.com is gmail.com, dots in a Gmail name do not count, and the plus tags of
--    Gmail, Outlook.com (outlook/hotmail/live/msn), Proton and Fastmail are dropped; me.com and
--    mac.com are icloud.com, pm.me and protonmail.* are proton.me. It keys the e-mail caps, the
--    self-referral check and the referral ledger.
-- 4. LINKS THAT STAY. Tokens move to private.waitlist_tokens: a new link no longer replaces the
--    one already sent (each works until it expires), and nothing a third party does moves
--    `confirm_by`: an unconfirmed entry is purged when its first week is over, however many links
--    were asked for, and a link can confirm only until then. Every link also opens the person's
--    own page, until `access_ttl` (30 days) after it was sent; a confirmed person who lost it asks
--    for a fresh one with waitlist_request_link(email) (an 'access_email', capped as in 2), which
--    answers the same for any address. The token columns of public.waitlist are dropped.
-- 5. REFERRAL CREDIT ONCE PER MAILBOX. Self-referral compares mailbox keys. A credit is written to
--    private.waitlist_referral_ledger under (referrer, a salted fingerprint of the referred
--    mailbox): the same mailbox, however spelt and however often it erases itself and comes back,
--    earns a referrer one credit. The ledger row outlives the referred person's erasure as
--    "a credit, at this time, from someone since erased": no address, no name, no entry.
-- 6. NETWORKS, NOT /64s. Every per-network limit (sign-ups, confirm, new link, own data) counts an
--    IPv6 client in its /64 and also in its /48 and /32, which get `v6_48_factor` and
--    `v6_32_factor` times the allowance (4 and 16): a free /48 from a tunnel broker no longer makes
--    65,536 networks. Sign-ups now count in private.waitlist_api_attempts like the other calls
--    (one function, private.waitlist_limit_network); waitlist_recent_signups keeps the domain
--    burst. The client is still the edge's cf-connecting-ip, else the last X-Forwarded-For hop
--    (private.waitlist_request_client, now the only copy of that rule).
-- 7. NO ADDRESS OR NAME IN A STORED ERROR. A trigger replaces anything shaped like an address, and
--    the entry's name, in waitlist_outbox.last_error, for every kind (an SMTP rejection quotes the
--    recipient); the dispatcher redacts its report and log the same way.
-- 8. THE PLACE IS OURS. waitlist_me(token) no longer takes `places_per_referral` from the caller:
--    it is a setting here (5), and the one line of confirmed people (private.waitlist_line) is what
--    the place shown to a person and the order of invitations both read.
-- 9. RETRIES. 12 attempts instead of 8: with the 30 s base doubling up to 6 h, the last attempt is
--    about 14 h 31 min after the first (it was about 64 min: an evening's SMTP outage lost mail).
--
-- Never edit this file once applied; change settings with an update in a later migration.

-- ---------------------------------------------------------------------------
-- Settings

alter table private.waitlist_limits
  add column v6_48_factor integer not null default 4 check (v6_48_factor >= 1),
  add column v6_32_factor integer not null default 16 check (v6_32_factor >= 1);
comment on column private.waitlist_limits.v6_48_factor is 'An IPv6 /48 may do this many times what one network (/64) may.';
comment on column private.waitlist_limits.v6_32_factor is 'An IPv6 /32 may do this many times what one network (/64) may.';

alter table private.waitlist_confirmation_settings
  add column access_ttl interval not null default interval '30 days' check (access_ttl > interval '0');
comment on column private.waitlist_confirmation_settings.access_ttl is 'How long an e-mailed link opens the person''s own page (a pending entry''s link confirms only until its confirm_by).';
update private.waitlist_confirmation_settings set max_attempts = 12;

alter table private.waitlist_referral_settings
  add column places_per_referral integer not null default 5 check (places_per_referral between 0 and 1000);
comment on column private.waitlist_referral_settings.places_per_referral is 'How many places each confirmed referral moves an entry up the line.';

create table private.waitlist_mail_caps (
  singleton boolean primary key default true check (singleton),
  unproven_per_recipient integer not null check (unproven_per_recipient > 0),
  recipient_window interval not null check (recipient_window > interval '0'),
  emails_per_hour integer not null check (emails_per_hour > 0)
);
comment on table private.waitlist_mail_caps is
  'E-mail caps (one row): per mailbox for links anyone can ask for, and for all e-mails together. Change with an update in a migration.';
insert into private.waitlist_mail_caps values (true, 3, interval '1 day', 500);

-- ---------------------------------------------------------------------------
-- 1. Plain text

create function waitlist_rules.plain_text(value text)
returns boolean
language sql
immutable
strict
parallel safe
set search_path = ''
-- C0 and C1 controls (line breaks and tabs among them), the line and paragraph separators, bidi
-- controls and isolates, zero-width space, word joiner and invisible operators, the BOM, and the
-- interlinear annotation characters. Mirrored by PLAIN_TEXT_FORBIDDEN in components/waitlist/rules.ts.
return value !~ '[\u0000-\u001F\u007F-\u009F\u061C\u200B\u200E\u200F\u2028-\u202E\u2060-\u206F\uFEFF\uFFF9-\uFFFB]';

alter table public.waitlist
  add constraint waitlist_name_plain check (waitlist_rules.plain_text(name)) not valid,
  add constraint waitlist_project_plain check (waitlist_rules.plain_text(project)) not valid;

-- ---------------------------------------------------------------------------
-- 3. Mailbox keys

create function waitlist_rules.mailbox_key(email text)
returns text
language plpgsql
immutable
strict
parallel safe
set search_path = ''
as $$
declare
  address text := pg_catalog.lower(email);
  at integer := pg_catalog.length(address) - pg_catalog.strpos(pg_catalog.reverse(address), '@') + 1;
  local text;
  domain text;
begin
  if pg_catalog.strpos(address, '@') = 0 then
    return address;
  end if;
  local := pg_catalog.substr(address, 1, at - 1);
  domain := pg_catalog.substr(address, at + 1);
  domain := case domain
    when 'googlemail.com' then 'gmail.com'
    when 'protonmail.com' then 'proton.me'
    when 'protonmail.ch' then 'proton.me'
    when 'pm.me' then 'proton.me'
    when 'me.com' then 'icloud.com'
    when 'mac.com' then 'icloud.com'
    else domain
  end;
  if domain in ('gmail.com', 'outlook.com', 'hotmail.com', 'hotmail.co.uk', 'hotmail.fr', 'live.com', 'msn.com', 'proton.me', 'fastmail.com') then
    local := pg_catalog.split_part(local, '+', 1);
  end if;
  if domain = 'gmail.com' then
    local := pg_catalog.replace(local, '.', '');
  end if;
  return local || '@' || domain;
end
$$;

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

-- ---------------------------------------------------------------------------
-- 6. Networks

-- The address the platform's edge says the request came from (see the trust migration); null
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

-- The salted keys a client counts under, narrowest first (always the same order, so concurrent
-- requests take their locks in one order): its network (an IPv4 address, an IPv6 /64, exactly the
-- hash the earlier migrations wrote), and for IPv6 its /48 and /32 with their larger allowance.
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

alter table private.waitlist_api_attempts drop constraint waitlist_api_attempts_action_check;
alter table private.waitlist_api_attempts
  add constraint waitlist_api_attempts_action_check check (action in ('sign_up', 'confirm', 'request_link', 'own_data'));

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

-- The sign-up trigger of the trust migration, with the per-network part through the function
-- above (so it counts /48 and /32 too); the one-row guard, the address lock and the domain burst
-- are as they were.
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

-- ---------------------------------------------------------------------------
-- 4. Tokens

create table private.waitlist_tokens (
  token_hash text primary key constraint waitlist_tokens_hash_format check (token_hash ~ '^[0-9a-f]{64}$'),
  entry_id uuid not null references public.waitlist (id) on delete cascade,
  created_at timestamptz not null default now(),
  expires_at timestamptz not null,
  constraint waitlist_tokens_expiry check (expires_at > created_at)
);
comment on table private.waitlist_tokens is
  'SHA-256 (hex) of every e-mailed link''s token; the token itself is never stored. Each works until expires_at (and, for a pending entry, its confirm_by).';
create index waitlist_tokens_entry on private.waitlist_tokens (entry_id);
create index waitlist_tokens_expires on private.waitlist_tokens (expires_at);

-- The links already sent keep working, for their new lifetime from when they were sent.
insert into private.waitlist_tokens (token_hash, entry_id, created_at, expires_at)
select w.token_hash, w.id, w.token_expires_at - s.token_ttl, w.token_expires_at - s.token_ttl + s.access_ttl
  from public.waitlist w cross join private.waitlist_confirmation_settings s
 where w.token_hash is not null;

alter table public.waitlist drop constraint waitlist_token_pair;
alter table public.waitlist drop column token_hash, drop column token_expires_at;

-- The entry an e-mailed token opens, and whether the link has expired (past its lifetime, or a
-- pending entry past its confirm_by). Null entry for a malformed or unknown token.
create function private.waitlist_token_entry(token text, for_update boolean, out entry public.waitlist, out expired boolean)
language plpgsql
volatile
security definer
set search_path = ''
as $$
declare
  link private.waitlist_tokens;
begin
  expired := false;
  -- The dispatcher's tokens are 32 random bytes in base64url: 43 characters.
  if token is null or token !~ '^[A-Za-z0-9_-]{43}$' then
    return;
  end if;
  select * into link from private.waitlist_tokens k
   where k.token_hash = pg_catalog.encode(pg_catalog.sha256(pg_catalog.convert_to(token, 'UTF8')), 'hex');
  if not found then
    return;
  end if;
  if for_update then
    select * into entry from public.waitlist w where w.id = link.entry_id for update;
  else
    select * into entry from public.waitlist w where w.id = link.entry_id;
  end if;
  expired := link.expires_at <= pg_catalog.now() or (entry.status = 'pending' and entry.confirm_by <= pg_catalog.now());
end
$$;

-- The own-data functions' holder (waitlist_export_me and waitlist_delete_me call it unchanged):
-- rate limited per network, null for an unknown or expired link.
create or replace function private.waitlist_entry_for_token(token text, for_update boolean default false)
returns public.waitlist
language plpgsql
volatile
security definer
set search_path = ''
as $$
declare
  held record;
begin
  perform private.waitlist_limit_network(
    'own_data', (select s.own_data_per_client from private.waitlist_referral_settings s), (select s.window_seconds from private.waitlist_confirmation_settings s),
    'Too many attempts from this network. Please wait a few minutes and try again.', 'calls'
  );
  select * into held from private.waitlist_token_entry(token, for_update);
  if (held.entry).id is null or held.expired then
    return null;
  end if;
  return held.entry;
end
$$;

create or replace function public.waitlist_confirm(token text)
returns text
language plpgsql
volatile
security definer
set search_path = ''
as $$
declare
  settings private.waitlist_confirmation_settings;
  held record;
begin
  select * into strict settings from private.waitlist_confirmation_settings;
  perform private.waitlist_limit_network('confirm', settings.confirm_per_client, settings.window_seconds, 'Too many attempts from this network. Please wait a few minutes and try again.', 'attempts');
  select * into held from private.waitlist_token_entry(token, true);
  if (held.entry).id is null then
    return 'invalid';
  end if;
  if (held.entry).status <> 'pending' then
    return 'already_confirmed';
  end if;
  if held.expired then
    return 'expired';
  end if;
  update public.waitlist set status = 'confirmed', confirmed_at = pg_catalog.now() where id = (held.entry).id;
  return 'confirmed';
end
$$;
comment on function public.waitlist_confirm(text) is
  'Confirms the pending entry whose link this is (a person pressing the button on the link''s page): ''confirmed'', ''already_confirmed'', ''expired'' or ''invalid''. Rate limited per network.';

-- ---------------------------------------------------------------------------
-- 2. The outbox: access e-mails, the mail log and its caps, redacted errors

alter table public.waitlist_outbox drop constraint waitlist_outbox_kind_check;
alter table public.waitlist_outbox
  add constraint waitlist_outbox_kind_check check (kind in ('confirmation_email', 'access_email', 'slack_confirmed', 'erasure_email'));

create table private.waitlist_mail_log (
  id bigint generated always as identity primary key,
  recipient_hash text not null check (recipient_hash ~ '^[0-9a-f]{64}$'),
  kind text not null,
  created_at timestamptz not null default now()
);
comment on table private.waitlist_mail_log is
  'One row per e-mail when it is first claimed: its kind and a salted hash of its recipient''s mailbox, for the caps; pruned after the longest window.';
create index waitlist_mail_log_recipient on private.waitlist_mail_log (recipient_hash, created_at);
create index waitlist_mail_log_created on private.waitlist_mail_log (created_at);

create function private.waitlist_outbox_redact()
returns trigger
language plpgsql
security definer
set search_path = ''
as $$
declare
  person_name text;
  at integer;
begin
  if new.last_error is null then
    return new;
  end if;
  new.last_error := pg_catalog.regexp_replace(new.last_error, '[^\s<>()",;:]+@[^\s<>()",;:]+', '[address]', 'g');
  if new.entry_id is not null then
    select w.name into person_name from public.waitlist w where w.id = new.entry_id;
    if pg_catalog.char_length(person_name) >= 2 then
      at := pg_catalog.strpos(pg_catalog.lower(new.last_error), pg_catalog.lower(person_name));
      while at > 0 loop
        new.last_error := overlay(new.last_error placing '[name]' from at for pg_catalog.char_length(person_name));
        at := pg_catalog.strpos(pg_catalog.lower(new.last_error), pg_catalog.lower(person_name));
      end loop;
    end if;
  end if;
  return new;
end
$$;

create trigger waitlist_outbox_redact
  before insert or update on public.waitlist_outbox
  for each row execute function private.waitlist_outbox_redact();

-- Errors stored before this migration lose their addresses and names too.
update public.waitlist_outbox set last_error = last_error where last_error is not null;

-- As in 20261123220000_waitlist_erasure_email.sql, and now under the e-mail caps (see 2): the
-- first claim of each e-mail is logged; an e-mail over its mailbox's cap is skipped with a note;
-- e-mails over the hour's total stay pending, in order, and are claimed once it allows.
create or replace function public.waitlist_outbox_claim(max_messages integer default 20)
returns jsonb
language plpgsql
volatile
security definer
set search_path = ''
as $$
declare
  settings private.waitlist_confirmation_settings;
  caps private.waitlist_mail_caps;
  budget integer;
  candidate record;
  recipient text;
  recent integer;
  taken uuid[] := '{}';
  claimed jsonb;
begin
  select * into strict settings from private.waitlist_confirmation_settings;
  select * into strict caps from private.waitlist_mail_caps;

  update public.waitlist_outbox o
     set status = 'in_doubt', lease_id = null, lease_until = null,
         last_error = 'The dispatcher stopped between claiming and marking this message; it may have been delivered, so it is not sent again.'
   where o.status = 'sending' and o.lease_until < pg_catalog.now();

  update public.waitlist_outbox o
     set status = 'skipped', note = 'The entry was confirmed before this e-mail was sent.'
    from public.waitlist w
   where o.entry_id = w.id and o.kind = 'confirmation_email' and o.status = 'pending' and w.status <> 'pending';

  perform pg_catalog.pg_advisory_xact_lock(pg_catalog.hashtext('waitlist mail caps'));
  select caps.emails_per_hour - count(*) into budget
    from private.waitlist_mail_log l where l.created_at > pg_catalog.now() - interval '1 hour';

  for candidate in
    select o.id, o.kind, o.attempts, coalesce(w.email, o.payload ->> 'email') as email
      from public.waitlist_outbox o
      left join public.waitlist w on w.id = o.entry_id
     where o.status = 'pending' and o.available_at <= pg_catalog.now()
     order by o.available_at, o.created_at
     limit 500
     for update of o skip locked
  loop
    exit when pg_catalog.cardinality(taken) >= greatest(0, least(max_messages, 100));
    if candidate.kind like '%\_email' and candidate.attempts = 0 then
      continue when budget <= 0;
      recipient := private.waitlist_mailbox_hash('mail', candidate.email);
      if candidate.kind in ('confirmation_email', 'access_email') then
        select count(*) into recent from private.waitlist_mail_log l
         where l.recipient_hash = recipient and l.kind in ('confirmation_email', 'access_email')
           and l.created_at > pg_catalog.now() - caps.recipient_window;
        if recent >= caps.unproven_per_recipient then
          update public.waitlist_outbox o
             set status = 'skipped',
                 note = pg_catalog.left(pg_catalog.format('Not sent: this mailbox had %s links within %s (the cap for links anyone can ask for).', recent, caps.recipient_window), 200)
           where o.id = candidate.id;
          continue;
        end if;
      end if;
      insert into private.waitlist_mail_log (recipient_hash, kind) values (recipient, candidate.kind);
      budget := budget - 1;
    end if;
    taken := taken || candidate.id;
  end loop;

  with grabbed as (
    update public.waitlist_outbox o
       set status = 'sending', lease_id = gen_random_uuid(), lease_until = pg_catalog.now() + settings.lease,
           attempts = o.attempts + 1
     where o.id = any (taken)
     returning o.*
  )
  select coalesce(pg_catalog.jsonb_agg(pg_catalog.jsonb_build_object(
           'id', t.id, 'kind', t.kind, 'lease_id', t.lease_id, 'attempts', t.attempts, 'payload', t.payload,
           'entry', case when w.id is null then null else pg_catalog.jsonb_build_object(
             'id', w.id, 'name', w.name, 'email', w.email, 'project', w.project,
             'utm_source', w.utm_source, 'utm_medium', w.utm_medium, 'utm_campaign', w.utm_campaign,
             'referrer_host', w.referrer_host, 'landing_path', w.landing_path
           ) end
         ) order by t.available_at, t.created_at), '[]'::jsonb)
    into claimed
    from grabbed t
    left join public.waitlist w on w.id = t.entry_id;
  return claimed;
end
$$;

-- Stores the hash of the token the dispatcher is about to e-mail, beside the entry's earlier ones;
-- returns the date the e-mail states (a confirmation link: the entry's confirm_by; an access link:
-- its own expiry), or null when the lease is lost or the entry is no longer in that state.
create or replace function public.waitlist_outbox_attach_token(message_id uuid, lease uuid, new_token_hash text)
returns timestamptz
language plpgsql
volatile
security definer
set search_path = ''
as $$
declare
  settings private.waitlist_confirmation_settings;
  message public.waitlist_outbox;
  entry public.waitlist;
  expires timestamptz;
begin
  select * into strict settings from private.waitlist_confirmation_settings;
  select * into message from public.waitlist_outbox o
   where o.id = message_id and o.lease_id = lease and o.status = 'sending' and o.lease_until > pg_catalog.now()
     and o.kind in ('confirmation_email', 'access_email');
  if not found then
    return null;
  end if;
  select * into entry from public.waitlist w where w.id = message.entry_id for update;
  if not found
     or (message.kind = 'confirmation_email' and (entry.status <> 'pending' or entry.confirm_by <= pg_catalog.now()))
     or (message.kind = 'access_email' and entry.status = 'pending') then
    return null;
  end if;
  expires := pg_catalog.now() + settings.access_ttl;
  insert into private.waitlist_tokens (token_hash, entry_id, expires_at) values (new_token_hash, entry.id, expires);
  return case when message.kind = 'confirmation_email' then least(entry.confirm_by, expires) else expires end;
end
$$;

-- A new link for whoever holds the mailbox: a confirmation link while the entry is pending, a link
-- to the person's own page once it is confirmed. The same answer (nothing) for any address; at most
-- one per address per interval, never while one is on its way, and never past the mailbox's cap.
-- Asking keeps nothing alive: confirm_by does not move.
create or replace function public.waitlist_request_link(email text)
returns void
language plpgsql
volatile
security definer
set search_path = ''
as $$
declare
  settings private.waitlist_confirmation_settings;
  caps private.waitlist_mail_caps;
  normalized text;
  entry public.waitlist;
begin
  select * into strict settings from private.waitlist_confirmation_settings;
  select * into strict caps from private.waitlist_mail_caps;
  perform private.waitlist_limit_network(
    'request_link', settings.link_requests_per_client, settings.window_seconds,
    'Too many attempts from this network. Please wait a few minutes and try again.', 'requests'
  );
  if email is null or pg_catalog.char_length(email) > 320 then
    return;
  end if;
  normalized := waitlist_rules.normalize_email(email);
  perform pg_catalog.pg_advisory_xact_lock(pg_catalog.hashtext('waitlist email'), pg_catalog.hashtext(pg_catalog.lower(normalized)));
  select * into entry from public.waitlist w where w.email_key = pg_catalog.lower(normalized) for update;
  if not found or (entry.status = 'pending' and entry.confirm_by <= pg_catalog.now()) then
    return;
  end if;
  if exists (
    select 1 from public.waitlist_outbox o
     where o.entry_id = entry.id and o.kind in ('confirmation_email', 'access_email')
       and (o.status in ('pending', 'sending') or o.created_at > pg_catalog.now() - pg_catalog.make_interval(secs => settings.link_request_interval_seconds))
  ) then
    return;
  end if;
  if (select count(*) from private.waitlist_mail_log l
       where l.recipient_hash = private.waitlist_mailbox_hash('mail', entry.email) and l.kind in ('confirmation_email', 'access_email')
         and l.created_at > pg_catalog.now() - caps.recipient_window) >= caps.unproven_per_recipient then
    return;
  end if;
  insert into public.waitlist_outbox (entry_id, kind)
  values (entry.id, case when entry.status = 'pending' then 'confirmation_email' else 'access_email' end);
end
$$;
comment on function public.waitlist_request_link(text) is
  'Queues a new link for the address (confirmation while pending, own page once confirmed); answers the same for any address. Rate limited per network, per address and per mailbox.';

-- ---------------------------------------------------------------------------
-- 5. Referrals

create table private.waitlist_referral_ledger (
  referrer_id uuid not null references public.waitlist (id) on delete cascade,
  mailbox_hash text not null check (mailbox_hash ~ '^[0-9a-f]{64}$'),
  referred_id uuid references public.waitlist (id) on delete set null,
  credited_at timestamptz not null default now(),
  primary key (referrer_id, mailbox_hash)
);
comment on table private.waitlist_referral_ledger is
  'One row per referral credit: the referrer, a salted fingerprint of the referred mailbox (one credit per mailbox, ever) and the referred entry while it exists.';

create or replace function private.waitlist_referral()
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

create or replace function private.waitlist_referral_credit()
returns trigger
language plpgsql
security definer
set search_path = ''
as $$
begin
  if new.status = 'confirmed' and new.referred_by is not null and (tg_op = 'INSERT' or old.status is distinct from 'confirmed') then
    insert into private.waitlist_referral_ledger (referrer_id, mailbox_hash, referred_id)
    values (new.referred_by, private.waitlist_mailbox_hash('referral ' || new.referred_by::text, new.email), new.id)
    on conflict do nothing;
    if found then
      update public.waitlist set referral_credits = referral_credits + 1 where id = new.referred_by;
    end if;
  end if;
  return null;
end
$$;

-- ---------------------------------------------------------------------------
-- 8. The line

drop function public.waitlist_me(text, integer);
drop function private.waitlist_place(uuid, integer);

-- Every confirmed entry's place: in order of confirmation, each credit moving an entry up
-- places_per_referral places, ties to the earlier confirmation. The place a person is shown and the
-- order of invitations both read this, and nothing else.
create function private.waitlist_line()
returns table (entry_id uuid, place bigint)
language sql
stable
security definer
set search_path = ''
as $$
  with settings as (
    select s.places_per_referral from private.waitlist_referral_settings s
  ), confirmed as (
    select w.id, w.referral_credits,
           pg_catalog.row_number() over (order by coalesce(w.confirmed_at, w.created_at), w.created_at, w.id) as arrival
      from public.waitlist w
     where w.status = 'confirmed'
  )
  select c.id, pg_catalog.row_number() over (
           order by c.arrival - c.referral_credits::bigint * (select settings.places_per_referral from settings), c.arrival
         )
    from confirmed c
$$;

create function public.waitlist_me(token text)
returns jsonb
language plpgsql
volatile
security definer
set search_path = ''
as $$
declare
  held record;
begin
  perform private.waitlist_limit_network(
    'own_data', (select s.own_data_per_client from private.waitlist_referral_settings s), (select s.window_seconds from private.waitlist_confirmation_settings s),
    'Too many attempts from this network. Please wait a few minutes and try again.', 'calls'
  );
  select * into held from private.waitlist_token_entry(token, false);
  if (held.entry).id is null then
    return null;
  end if;
  -- The token is the secret: telling its holder that it expired tells nobody anything new.
  if held.expired then
    return pg_catalog.jsonb_build_object('status', 'expired');
  end if;
  if (held.entry).status = 'pending' then
    return pg_catalog.jsonb_build_object('status', 'pending', 'confirm_by', (held.entry).confirm_by);
  end if;
  return pg_catalog.jsonb_build_object(
    'status', (held.entry).status,
    'place', (select l.place from private.waitlist_line() l where l.entry_id = (held.entry).id),
    'confirmed_total', (select count(*) from public.waitlist w where w.status = 'confirmed'),
    'referrals', (held.entry).referral_credits,
    'referral_code', (held.entry).referral_code,
    'places_per_referral', (select s.places_per_referral from private.waitlist_referral_settings s)
  );
end
$$;
comment on function public.waitlist_me(text) is
  'What the link''s page shows its holder: ''pending'' (press to confirm), ''expired'', or their place, credits and referral code; null for any other token. Rate limited per network.';

-- ---------------------------------------------------------------------------
-- The purge: as in the erasure migration, and old links and mail-log rows go too.

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
  deleted integer;
begin
  select * into strict settings from private.waitlist_confirmation_settings;
  select * into strict caps from private.waitlist_mail_caps;
  update public.waitlist_outbox o
     set status = 'failed',
         note = pg_catalog.left(pg_catalog.format('Not sent within %s; given up, and the address removed.', settings.erasure_email_lifetime), 200)
   where o.kind = 'erasure_email' and o.status = 'pending' and o.created_at + settings.erasure_email_lifetime < pg_catalog.now();
  delete from public.waitlist w
   where w.status = 'pending'
     and w.confirm_by + settings.purge_pending_after < pg_catalog.now();
  get diagnostics deleted = row_count;
  -- An expired link still answers "expired" for a month, then "invalid".
  delete from private.waitlist_tokens k where k.expires_at < pg_catalog.now() - interval '30 days';
  delete from private.waitlist_mail_log l where l.created_at < pg_catalog.now() - greatest(caps.recipient_window, interval '1 hour');
  return deleted;
end
$$;

-- ---------------------------------------------------------------------------
-- Old helpers, replaced above

drop function private.waitlist_limit_action(text, integer);
drop function private.waitlist_request_client_hash();

revoke all on all functions in schema private from public, anon, authenticated, service_role;
revoke all on function waitlist_rules.plain_text(text), waitlist_rules.mailbox_key(text) from public;
-- Constraints run as the inserting role.
grant execute on function waitlist_rules.plain_text(text) to anon, authenticated, service_role;
revoke all on function public.waitlist_me(text) from public, anon, authenticated, service_role;
grant execute on function public.waitlist_me(text) to anon, service_role;
