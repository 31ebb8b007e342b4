-- Double opt-in, a transactional outbox, and where sign-ups came from (issue #16).
--
-- 1. DOUBLE OPT-IN. A new entry is 'pending' until its owner opens the link of the confirmation
--    e-mail. The link carries a random token of 256 bits; only its SHA-256 (hex) is stored, on the
--    entry, with its expiry (private.waitlist_confirmation_settings.token_ttl, 7 days). The token
--    is minted by the dispatcher (service role) at the moment it sends the e-mail, so the
--    plaintext exists only in that process's memory and in the e-mail itself: never in a table,
--    never in the outbox, never in a log. A new link replaces the previous one (one token per
--    entry). After confirmation the hash stays, so the link can answer "already confirmed".
--    The public key confirms through public.waitlist_confirm(token), a narrow security definer
--    function: it answers 'confirmed', 'already_confirmed', 'expired' or 'invalid', and only to
--    whoever holds the token (the token is the secret, so telling its holder that it expired
--    tells nobody anything new). It is rate limited per network like sign-ups. anon still has no
--    SELECT on any table.
--    A visitor who lost the link asks for a new one with public.waitlist_request_link(email): it
--    answers the same (HTTP 204) whether or not the address is listed, pending or confirmed, and
--    is rate limited per network and per address.
--    An entry still pending after its confirm_by time no longer blocks its address: a new sign-up
--    replaces it (trigger waitlist_replace_expired). private.waitlist_purge_pending() deletes such
--    entries (data minimisation: an unconfirmed address may belong to someone who never asked);
--    the dispatcher calls it on every run and a pg_cron schedule can too (README).
--
-- 2. OUTBOX. public.waitlist_outbox holds the messages the waitlist causes, written by triggers in
--    the same transaction as their fact: a 'confirmation_email' with every new pending entry and
--    every granted request for a new link, a 'slack_confirmed' with every confirmation (its payload
--    is the running total at that moment; names are read at send time, so the outbox holds no
--    copy of personal data and an erased entry takes its messages with it, on delete cascade).
--    The dispatcher (lib/outbox, service role only) claims due messages with a lease
--    (status 'sending', lease_id, lease_until), sends, and marks them 'sent' (or 'skipped') with
--    the lease it holds. A failed send goes back to 'pending' with exponential backoff, the error
--    and the attempt count recorded, until max_attempts ('failed'). A lease that expires while
--    still 'sending' means the dispatcher died between claiming and marking: the message may or
--    may not have left. It is then marked 'in_doubt' and NOT sent again (SMTP has no idempotency
--    key to ask the provider with): a duplicate is impossible, and the owner sees it in the
--    outbox; for a confirmation e-mail the visitor can ask for a new link. The lease (2 minutes)
--    is longer than the dispatcher's whole SMTP and Slack timeouts, so a slow but live send is
--    never taken for a dead one.
--
-- 3. SOURCE. Optional utm_source, utm_medium, utm_campaign, referrer_host and landing_path, written
--    by the form (anon may insert them), checked and length-limited here.
--
-- Entries stored before this migration are kept as 'confirmed' with confirmed_at null: they were
-- accepted under the old single opt-in, and the purge must not delete them. waitlist:list shows
-- them without a confirmation time.
--
-- Never edit this file once applied; change settings with an update in a later migration.

-- ---------------------------------------------------------------------------
-- Settings

create table private.waitlist_confirmation_settings (
  singleton boolean primary key default true check (singleton),
  token_ttl interval not null check (token_ttl > interval '0'),
  -- How long after confirm_by an unconfirmed entry is kept before the purge deletes it.
  purge_pending_after interval not null check (purge_pending_after >= interval '0'),
  window_seconds integer not null check (window_seconds > 0),
  confirm_per_client integer not null check (confirm_per_client > 0),
  link_requests_per_client integer not null check (link_requests_per_client > 0),
  -- At most one new link per address per this many seconds (silently: the answer is the same).
  link_request_interval_seconds integer not null check (link_request_interval_seconds >= 0),
  lease interval not null check (lease > interval '0'),
  max_attempts integer not null check (max_attempts > 0),
  retry_base_seconds integer not null check (retry_base_seconds >= 0),
  retry_max_seconds integer not null check (retry_max_seconds >= 0)
);
comment on table private.waitlist_confirmation_settings is
  'Double opt-in and outbox settings (one row). Change them with an update in a migration.';
insert into private.waitlist_confirmation_settings values (
  true, interval '7 days', interval '0', 3600, 30, 10, 60, interval '2 minutes', 8, 30, 21600
);

create table private.waitlist_api_attempts (
  id bigint generated always as identity primary key,
  action text not null check (action in ('confirm', 'request_link')),
  client_hash text not null check (client_hash ~ '^[0-9a-f]{64}$'),
  created_at timestamptz not null default now()
);
comment on table private.waitlist_api_attempts is
  'Recent confirm and new-link calls per salted client hash, for their rate limits; pruned as it goes.';
create index waitlist_api_attempts_client on private.waitlist_api_attempts (action, client_hash, created_at);

-- ---------------------------------------------------------------------------
-- The entry: status, token, source

alter table public.waitlist
  add column status text not null default 'confirmed' constraint waitlist_status_known check (status in ('pending', 'confirmed')),
  add column confirmed_at timestamptz,
  add column confirm_by timestamptz,
  add column token_hash text constraint waitlist_token_hash_format check (token_hash ~ '^[0-9a-f]{64}$'),
  add column token_expires_at timestamptz,
  add column utm_source text,
  add column utm_medium text,
  add column utm_campaign text,
  add column referrer_host text,
  add column landing_path text;
-- Existing rows became 'confirmed' above (single opt-in); every new row starts pending.
alter table public.waitlist alter column status set default 'pending';
alter table public.waitlist alter column confirm_by set default now() + interval '7 days';

alter table public.waitlist
  add constraint waitlist_token_pair check ((token_hash is null) = (token_expires_at is null)),
  add constraint waitlist_confirmed_time check (status = 'confirmed' or confirmed_at is null),
  -- Campaign tags: short printable text (no controls, no bidi or invisible format characters).
  add constraint waitlist_utm_source_format check (utm_source ~ '^[^\u0000-\u001F\u007F-\u009F\u061C\u200B-\u200F\u2028-\u202E\u2060-\u2069\uFEFF]{1,100}$'),
  add constraint waitlist_utm_medium_format check (utm_medium ~ '^[^\u0000-\u001F\u007F-\u009F\u061C\u200B-\u200F\u2028-\u202E\u2060-\u2069\uFEFF]{1,100}$'),
  add constraint waitlist_utm_campaign_format check (utm_campaign ~ '^[^\u0000-\u001F\u007F-\u009F\u061C\u200B-\u200F\u2028-\u202E\u2060-\u2069\uFEFF]{1,100}$'),
  -- A host name as URL#hostname gives it (lower case, punycode), or a bracketed IPv6 address.
  add constraint waitlist_referrer_host_format check (
    char_length(referrer_host) <= 253
    and (referrer_host ~ '^[a-z0-9_-]+(\.[a-z0-9_-]+)*$' or referrer_host ~ '^\[[0-9a-f:.]+\]$')
  ),
  -- A path only: no scheme, host, query or fragment (those can carry personal data).
  add constraint waitlist_landing_path_format check (landing_path ~ '^/[^?#\u0000-\u0020\u007F-\u009F]{0,199}$');

comment on column public.waitlist.status is '''pending'' until the address is confirmed through the e-mailed link; ''confirmed'' after.';
comment on column public.waitlist.confirm_by is 'A pending entry still unconfirmed after this time no longer blocks its address and is purged.';
comment on column public.waitlist.token_hash is 'SHA-256 (hex) of the newest confirmation token; the token itself is never stored.';
comment on column public.waitlist.landing_path is 'The first page of the visit on this site (path only).';

create unique index waitlist_token_hash_unique on public.waitlist (token_hash) where token_hash is not null;
create index waitlist_pending_confirm_by on public.waitlist (confirm_by) where status = 'pending';

grant insert (utm_source, utm_medium, utm_campaign, referrer_host, landing_path) on table public.waitlist to anon;

-- The owner's SQL or import may set status and confirm_by; the API's anon may not (no grant). The
-- expiry of a new entry follows the setting, whatever the column default says.
create function private.waitlist_pending_defaults()
returns trigger
language plpgsql
security definer
set search_path = ''
as $$
begin
  if new.status = 'pending' then
    new.confirm_by := pg_catalog.now() + (select s.token_ttl from private.waitlist_confirmation_settings s);
    new.confirmed_at := null;
  elsif new.confirmed_at is null then
    new.confirmed_at := pg_catalog.now();
  end if;
  return new;
end
$$;

create trigger waitlist_pending_defaults
  before insert on public.waitlist
  for each row execute function private.waitlist_pending_defaults();

-- An expired pending entry of the same address gives way to the new sign-up. Runs after
-- waitlist_rate_limit (triggers fire in name order), which holds the address's advisory lock, so
-- two sign-ups of one address cannot both delete and insert.
create function private.waitlist_replace_expired()
returns trigger
language plpgsql
security definer
set search_path = ''
as $$
begin
  delete from public.waitlist w
   where w.email_key = pg_catalog.lower(new.email)
     and w.status = 'pending'
     and w.confirm_by <= pg_catalog.now();
  return new;
end
$$;

create trigger waitlist_replace_expired
  before insert on public.waitlist
  for each row execute function private.waitlist_replace_expired();

-- ---------------------------------------------------------------------------
-- The outbox

create table public.waitlist_outbox (
  id uuid primary key default gen_random_uuid(),
  entry_id uuid not null references public.waitlist (id) on delete cascade,
  kind text not null check (kind in ('confirmation_email', 'slack_confirmed')),
  payload jsonb not null default '{}'::jsonb,
  status text not null default 'pending' check (status in ('pending', 'sending', 'sent', 'skipped', 'failed', 'in_doubt')),
  attempts integer not null default 0 check (attempts >= 0),
  available_at timestamptz not null default now(),
  lease_id uuid,
  lease_until timestamptz,
  last_error text check (char_length(last_error) <= 500),
  note text check (char_length(note) <= 200),
  created_at timestamptz not null default now(),
  sent_at timestamptz,
  constraint waitlist_outbox_lease check ((status = 'sending') = (lease_id is not null and lease_until is not null))
);
comment on table public.waitlist_outbox is
  'Messages the waitlist causes, written in the same transaction as their fact; delivered by the dispatcher (service role).';
comment on column public.waitlist_outbox.id is 'Also the idempotency key of the message (its Message-ID, and the Slack post''s).';

create index waitlist_outbox_due on public.waitlist_outbox (available_at) where status = 'pending';
create index waitlist_outbox_leased on public.waitlist_outbox (lease_until) where status = 'sending';
create index waitlist_outbox_entry on public.waitlist_outbox (entry_id);

revoke all on table public.waitlist_outbox from public, anon, authenticated, service_role;
grant select, delete on table public.waitlist_outbox to service_role;
alter table public.waitlist_outbox enable row level security;
-- No policy: anon and authenticated can do nothing; service_role bypasses RLS.

create function private.waitlist_enqueue_messages()
returns trigger
language plpgsql
security definer
set search_path = ''
as $$
declare
  total bigint;
begin
  if tg_op = 'INSERT' and new.status = 'pending' then
    insert into public.waitlist_outbox (entry_id, kind) values (new.id, 'confirmation_email');
  elsif new.status = 'confirmed' and (tg_op = 'INSERT' or old.status is distinct from 'confirmed') then
    -- One confirmation at a time, so each message carries its own running total.
    perform pg_catalog.pg_advisory_xact_lock(pg_catalog.hashtext('waitlist confirmed total'));
    select count(*) into total from public.waitlist w where w.status = 'confirmed';
    insert into public.waitlist_outbox (entry_id, kind, payload)
    values (new.id, 'slack_confirmed', pg_catalog.jsonb_build_object('total', total));
  end if;
  return null;
end
$$;

create trigger waitlist_enqueue_messages
  after insert or update of status on public.waitlist
  for each row execute function private.waitlist_enqueue_messages();

-- ---------------------------------------------------------------------------
-- Rate limits of the two public functions

-- The salted hash of the request's client, as the sign-up limit computes it; null outside the API.
-- It repeats the few lines of private.waitlist_rate_limit() (20261123120000_waitlist_trust.sql)
-- that pick the client address, because a landed migration cannot be edited to call this; a
-- later change of which header counts must replace both (tests/integration/
-- waitlist-confirmation.test.ts checks the forged-first-hop case for this one).
create function private.waitlist_request_client_hash()
returns text
language plpgsql
stable
security definer
set search_path = ''
as $$
declare
  request_headers jsonb := nullif(pg_catalog.current_setting('request.headers', true), '')::jsonb;
  client text;
begin
  if request_headers is null then
    return null;
  end if;
  client := coalesce(
    nullif(pg_catalog.btrim(request_headers ->> 'cf-connecting-ip'), ''),
    nullif(pg_catalog.btrim(pg_catalog.split_part(request_headers ->> 'x-forwarded-for', ',', -1)), '')
  );
  if client is null then
    return null;
  end if;
  return pg_catalog.encode(
    pg_catalog.sha256(pg_catalog.convert_to((select s.salt from private.waitlist_salt s) || private.waitlist_client_key(client), 'UTF8')),
    'hex'
  );
end
$$;

-- Counts this call against the client's limit for `action`; HTTP 429 when over it.
create function private.waitlist_limit_action(p_action text, per_client integer)
returns void
language plpgsql
security definer
set search_path = ''
as $$
declare
  settings private.waitlist_confirmation_settings;
  v_client_hash text := private.waitlist_request_client_hash();
  window_start timestamptz;
  used integer;
  oldest timestamptz;
begin
  if v_client_hash is null then
    return;
  end if;
  select * into strict settings from private.waitlist_confirmation_settings;
  window_start := pg_catalog.now() - pg_catalog.make_interval(secs => settings.window_seconds);
  perform pg_catalog.pg_advisory_xact_lock(pg_catalog.hashtext('waitlist ' || p_action), pg_catalog.hashtext(v_client_hash));
  select count(*), min(a.created_at) into used, oldest
    from private.waitlist_api_attempts a
   where a.action = p_action and a.client_hash = v_client_hash and a.created_at > window_start;
  if used >= per_client then
    perform private.waitlist_refuse(
      'Too many attempts from this network. Please wait a few minutes and try again.',
      pg_catalog.format('At most %s per %s seconds from one network.', per_client, settings.window_seconds),
      greatest(1, pg_catalog.ceil(extract(epoch from oldest + pg_catalog.make_interval(secs => settings.window_seconds) - pg_catalog.now())))::integer
    );
  end if;
  insert into private.waitlist_api_attempts (action, client_hash) values (p_action, v_client_hash);
  delete from private.waitlist_api_attempts
   where id in (select a.id from private.waitlist_api_attempts a where a.created_at <= window_start order by a.created_at limit 100 for update skip locked);
end
$$;

-- ---------------------------------------------------------------------------
-- What the public key may call

create function public.waitlist_confirm(token text)
returns text
language plpgsql
volatile
security definer
set search_path = ''
as $$
declare
  entry public.waitlist;
begin
  perform private.waitlist_limit_action('confirm', (select s.confirm_per_client from private.waitlist_confirmation_settings s));
  -- The dispatcher's tokens are 32 random bytes in base64url: 43 characters. Anything else is
  -- answered like an unknown token, without a lookup.
  if token is null or token !~ '^[A-Za-z0-9_-]{43}$' then
    return 'invalid';
  end if;
  select * into entry from public.waitlist w
   where w.token_hash = pg_catalog.encode(pg_catalog.sha256(pg_catalog.convert_to(token, 'UTF8')), 'hex')
   for update;
  if not found then
    return 'invalid';
  end if;
  if entry.status = 'confirmed' then
    return 'already_confirmed';
  end if;
  if entry.token_expires_at <= pg_catalog.now() or entry.confirm_by <= pg_catalog.now() then
    return 'expired';
  end if;
  update public.waitlist set status = 'confirmed', confirmed_at = pg_catalog.now() where id = entry.id;
  return 'confirmed';
end
$$;
comment on function public.waitlist_confirm(text) is
  'Confirms the entry whose link token this is: ''confirmed'', ''already_confirmed'', ''expired'' or ''invalid''. Rate limited per network.';

create function public.waitlist_request_link(email text)
returns void
language plpgsql
volatile
security definer
set search_path = ''
as $$
declare
  settings private.waitlist_confirmation_settings;
  normalized text;
  entry public.waitlist;
begin
  select * into strict settings from private.waitlist_confirmation_settings;
  perform private.waitlist_limit_action('request_link', settings.link_requests_per_client);
  if email is null or pg_catalog.char_length(email) > 320 then
    return;
  end if;
  normalized := waitlist_rules.normalize_email(email);
  perform pg_catalog.pg_advisory_xact_lock(pg_catalog.hashtext('waitlist email'), pg_catalog.hashtext(pg_catalog.lower(normalized)));
  select * into entry from public.waitlist w where w.email_key = pg_catalog.lower(normalized) for update;
  -- Unknown or already confirmed: nothing to send, and the same answer.
  if not found or entry.status <> 'pending' then
    return;
  end if;
  -- One link per address per interval, and never while one is still on its way.
  if exists (
    select 1 from public.waitlist_outbox o
     where o.entry_id = entry.id and o.kind = 'confirmation_email'
       and (o.status in ('pending', 'sending') or o.created_at > pg_catalog.now() - pg_catalog.make_interval(secs => settings.link_request_interval_seconds))
  ) then
    return;
  end if;
  -- Asking again keeps the entry: a fresh link gets a fresh confirm_by (set when it is sent).
  update public.waitlist set confirm_by = greatest(confirm_by, pg_catalog.now() + settings.token_ttl) where id = entry.id;
  insert into public.waitlist_outbox (entry_id, kind) values (entry.id, 'confirmation_email');
end
$$;
comment on function public.waitlist_request_link(text) is
  'Queues a new confirmation link for a pending entry; answers the same for any address. Rate limited per network and per address.';

-- ---------------------------------------------------------------------------
-- What the dispatcher (service role) calls

-- Claims up to `max_messages` due messages under a fresh lease. Messages whose lease ran out while
-- 'sending' are first marked 'in_doubt' (see the header). A confirmation e-mail for an entry that
-- is no longer pending is skipped.
create function public.waitlist_outbox_claim(max_messages integer default 20)
returns jsonb
language plpgsql
volatile
security definer
set search_path = ''
as $$
declare
  settings private.waitlist_confirmation_settings;
  claimed jsonb;
begin
  select * into strict settings from private.waitlist_confirmation_settings;

  update public.waitlist_outbox o
     set status = 'in_doubt', lease_id = null, lease_until = null,
         last_error = 'The dispatcher stopped between claiming and marking this message; it may have been delivered, so it is not sent again.'
   where o.status = 'sending' and o.lease_until < pg_catalog.now();

  update public.waitlist_outbox o
     set status = 'skipped', note = 'The entry was confirmed before this e-mail was sent.'
    from public.waitlist w
   where o.entry_id = w.id and o.kind = 'confirmation_email' and o.status = 'pending' and w.status <> 'pending';

  with due as (
    select o.id from public.waitlist_outbox o
     where o.status = 'pending' and o.available_at <= pg_catalog.now()
     order by o.available_at, o.created_at
     limit greatest(0, least(max_messages, 100))
     for update skip locked
  ), taken as (
    update public.waitlist_outbox o
       set status = 'sending', lease_id = gen_random_uuid(), lease_until = pg_catalog.now() + settings.lease,
           attempts = o.attempts + 1
      from due
     where o.id = due.id
     returning o.*
  )
  select coalesce(pg_catalog.jsonb_agg(pg_catalog.jsonb_build_object(
           'id', t.id, 'kind', t.kind, 'lease_id', t.lease_id, 'attempts', t.attempts, 'payload', t.payload,
           'entry', pg_catalog.jsonb_build_object(
             'id', w.id, 'name', w.name, 'email', w.email, 'project', w.project,
             'utm_source', w.utm_source, 'utm_medium', w.utm_medium, 'utm_campaign', w.utm_campaign,
             'referrer_host', w.referrer_host, 'landing_path', w.landing_path
           )
         ) order by t.created_at), '[]'::jsonb)
    into claimed
    from taken t
    join public.waitlist w on w.id = t.entry_id;
  return claimed;
end
$$;

-- Stores the hash of the token the dispatcher is about to e-mail, replacing the previous one;
-- returns the link's expiry, or null when the lease is lost or the entry no longer pending.
create function public.waitlist_outbox_attach_token(message_id uuid, lease uuid, new_token_hash text)
returns timestamptz
language plpgsql
volatile
security definer
set search_path = ''
as $$
declare
  ttl interval := (select s.token_ttl from private.waitlist_confirmation_settings s);
  expires timestamptz := pg_catalog.now() + ttl;
  updated uuid;
begin
  update public.waitlist w
     set token_hash = new_token_hash,
         token_expires_at = expires,
         confirm_by = greatest(w.confirm_by, expires)
    from public.waitlist_outbox o
   where o.id = message_id and o.lease_id = lease and o.status = 'sending' and o.lease_until > pg_catalog.now()
     and o.kind = 'confirmation_email' and w.id = o.entry_id and w.status = 'pending'
  returning w.id into updated;
  return case when updated is null then null else expires end;
end
$$;

-- Marks a claimed message done ('sent' or 'skipped', with a note). False when the lease was lost.
create function public.waitlist_outbox_complete(message_id uuid, lease uuid, outcome text default 'sent', outcome_note text default null)
returns boolean
language plpgsql
volatile
security definer
set search_path = ''
as $$
begin
  if outcome not in ('sent', 'skipped') then
    raise exception 'outcome must be sent or skipped' using errcode = '22023';
  end if;
  update public.waitlist_outbox o
     set status = outcome, note = pg_catalog.left(outcome_note, 200), sent_at = case when outcome = 'sent' then pg_catalog.now() end,
         lease_id = null, lease_until = null, last_error = null
   where o.id = message_id and o.lease_id = lease and o.status = 'sending';
  return found;
end
$$;

-- Records a failed attempt: back to 'pending' after an exponential backoff, or 'failed' after
-- max_attempts. Returns the new status, or null when the lease was lost.
create function public.waitlist_outbox_fail(message_id uuid, lease uuid, failure text)
returns text
language plpgsql
volatile
security definer
set search_path = ''
as $$
declare
  settings private.waitlist_confirmation_settings;
  result text;
begin
  select * into strict settings from private.waitlist_confirmation_settings;
  update public.waitlist_outbox o
     set status = case when o.attempts >= settings.max_attempts then 'failed' else 'pending' end,
         available_at = pg_catalog.now() + pg_catalog.make_interval(
           secs => least(settings.retry_max_seconds, settings.retry_base_seconds * pg_catalog.power(2, least(o.attempts - 1, 30)))
         ),
         last_error = pg_catalog.left(coalesce(failure, 'unknown error'), 500),
         lease_id = null, lease_until = null
   where o.id = message_id and o.lease_id = lease and o.status = 'sending'
  returning o.status into result;
  return result;
end
$$;

-- Deletes entries left pending past confirm_by + purge_pending_after; returns how many.
create function public.waitlist_purge_pending()
returns integer
language plpgsql
volatile
security definer
set search_path = ''
as $$
declare
  deleted integer;
begin
  delete from public.waitlist w
   where w.status = 'pending'
     and w.confirm_by + (select s.purge_pending_after from private.waitlist_confirmation_settings s) < pg_catalog.now();
  get diagnostics deleted = row_count;
  return deleted;
end
$$;

revoke all on all functions in schema private from public, anon, authenticated, service_role;
revoke all on function public.waitlist_confirm(text), public.waitlist_request_link(text),
  public.waitlist_outbox_claim(integer), public.waitlist_outbox_attach_token(uuid, uuid, text),
  public.waitlist_outbox_complete(uuid, uuid, text, text), public.waitlist_outbox_fail(uuid, uuid, text),
  public.waitlist_purge_pending()
  from public, anon, authenticated, service_role;
grant execute on function public.waitlist_confirm(text), public.waitlist_request_link(text) to anon, service_role;
grant execute on function public.waitlist_outbox_claim(integer), public.waitlist_outbox_attach_token(uuid, uuid, text),
  public.waitlist_outbox_complete(uuid, uuid, text, text), public.waitlist_outbox_fail(uuid, uuid, text),
  public.waitlist_purge_pending()
  to service_role;
