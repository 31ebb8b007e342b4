-- Tokens and links: double opt-in, and the e-mailed links that open a person's own page.
--
-- Guarantees:
--   * A new entry is 'pending' until its owner opens the link of the confirmation e-mail. The link
--     carries 256 random bits; only their SHA-256 is stored (private.waitlist_tokens), minted by the
--     dispatcher when it sends, so the token exists only in that process and in the e-mail.
--   * Every link works until it expires (token_ttl for a confirmation, access_ttl for a page link),
--     and a pending entry's only until its confirm_by: a new link never replaces one already sent,
--     and nothing a third party does moves confirm_by.
--   * public.waitlist_confirm(token) answers 'confirmed', 'already_confirmed', 'expired' or
--     'invalid', only to the token's holder, rate limited per network. public.waitlist_request_link
--     (email) answers the same (nothing) for any address, listed or not, and sends a confirmation
--     or an access link within the e-mail caps.
--   * An entry still pending after confirm_by no longer blocks its address (a new sign-up replaces
--     it) and is purged by waitlist_purge_pending (07_outbox.sql).
--
-- TypeScript twins: components/waitlist/link.ts (the link page's calls) and
-- components/waitlist/outbox/token.ts (minting a token).

create table private.waitlist_confirmation_settings (
  singleton boolean primary key default true check (singleton),
  token_ttl interval not null check (token_ttl > '00:00:00'::interval),
  purge_pending_after interval not null check (purge_pending_after >= '00:00:00'::interval),
  window_seconds integer not null check (window_seconds > 0),
  confirm_per_client integer not null check (confirm_per_client > 0),
  link_requests_per_client integer not null check (link_requests_per_client > 0),
  link_request_interval_seconds integer not null,
  lease interval not null check (lease > '00:00:00'::interval),
  max_attempts integer not null check (max_attempts > 0),
  retry_base_seconds integer not null check (retry_base_seconds >= 0),
  retry_max_seconds integer not null check (retry_max_seconds >= 0),
  erasure_email_lifetime interval not null default '7 days'::interval check (erasure_email_lifetime > '00:00:00'::interval),
  access_ttl interval not null default '30 days'::interval check (access_ttl > '00:00:00'::interval),

  constraint waitlist_confirmation_settin_link_request_interval_second_check check (link_request_interval_seconds >= 0)
);

comment on table private.waitlist_confirmation_settings is
  'Double opt-in and outbox settings (one row). Change them with an update in a migration.';

comment on column private.waitlist_confirmation_settings.access_ttl is
  'How long an e-mailed link opens the person''s own page (a pending entry''s link confirms only until its confirm_by).';

revoke all on table private.waitlist_confirmation_settings from public, anon, authenticated, service_role;

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

revoke all on table private.waitlist_tokens from public, anon, authenticated, service_role;

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

revoke all on function private.waitlist_pending_defaults() from public, anon, authenticated, service_role;

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
  -- Also an entry of an import not committed (16_imports.sql), unless it is this import's own: it is
  -- not on the list yet, and the person signing up now is.
  delete from public.waitlist w
   where w.email_key = pg_catalog.lower(new.email)
     and w.status = 'pending'
     and (w.confirm_by <= pg_catalog.now()
          or (private.waitlist_import_pending(w.id)
              and not exists (select 1 from private.waitlist_imported e where e.entry_id = w.id and e.import_id = private.waitlist_importing())));
  return new;
end
$$;

revoke all on function private.waitlist_replace_expired() from public, anon, authenticated, service_role;

create trigger waitlist_replace_expired
  before insert on public.waitlist
  for each row execute function private.waitlist_replace_expired();

create function public.waitlist_confirm(token text)
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

revoke all on function public.waitlist_confirm(text) from public, anon, authenticated, service_role;
grant execute on function public.waitlist_confirm(text) to anon, service_role;

-- A new link for whoever holds the mailbox: a confirmation link while the entry is pending, a link
-- to the person's own page once it is confirmed. The same answer (nothing) for any address; at most
-- one per address per interval, never while one is on its way, and never past the mailbox's cap.
-- Asking keeps nothing alive: confirm_by does not move.
create function public.waitlist_request_link(email text)
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
  -- An entry of an import not committed (16_imports.sql) is not on the list yet: no link for it.
  if not found or (entry.status = 'pending' and (entry.confirm_by <= pg_catalog.now() or private.waitlist_import_pending(entry.id))) then
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

revoke all on function public.waitlist_request_link(text) from public, anon, authenticated, service_role;
grant execute on function public.waitlist_request_link(text) to anon, service_role;

-- The own-data functions' holder (waitlist_export_me and waitlist_delete_me call it unchanged):
-- rate limited per network, null for an unknown or expired link.
create function private.waitlist_entry_for_token(token text, for_update boolean default false)
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

revoke all on function private.waitlist_entry_for_token(text, boolean) from public, anon, authenticated, service_role;

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

revoke all on function private.waitlist_token_entry(text, boolean) from public, anon, authenticated, service_role;
