-- Let people in (issue #27): invitations in the order people earned, the product's app redeeming
-- them, and a one-click way off the list in every e-mail. tests/integration/waitlist-invitations.test.ts
-- runs it on PGlite and on a real PostgreSQL server.
--
-- 1. STATUSES. An entry moves pending -> confirmed -> invited -> joined, and nothing else: a
--    trigger refuses any other change of status (and invited -> confirmed only when an invitation
--    expires unused, below). Each step keeps its time (confirmed_at, invited_at, joined_at); every
--    invitation, used or not, is a row of private.waitlist_invitations. Leaving is erasure: "Delete
--    me" or the one-click unsubscribe delete the entry with everything that names the person.
--    The anon key still reads and writes none of it.
-- 2. INVITING IN ORDER. waitlist_invite_next(n, dry_run) takes the head of private.waitlist_line()
--    (the arithmetic of the place people are shown) under one advisory lock, so two runs at once
--    never pick the same person; waitlist_invite_email(address) invites one person out of order.
--    Turning an entry 'invited' writes, in the same transaction, its invitation row and its
--    'invitation_email' in the outbox; the dispatcher sends it once (lease, in doubt, as ever).
-- 3. THE INVITATION. Its link carries a token minted by the dispatcher when it sends (32 random
--    bytes; only the SHA-256 is stored, in private.waitlist_invitation_tokens). It expires
--    `invitation_ttl` (14 days) after the invitation; one reminder ('reminder_email', with a
--    token of its own: the first link keeps working) goes `reminder_after` (5 days) after it if it
--    is still unused. AT EXPIRY the person goes back in line, at the place they had earned (the
--    head, usually), and the invitation is kept as expired: the next waitlist_invite_next() invites
--    them again, with a fresh link, when the founders have room; nothing is sent by itself.
--    Both run in waitlist_purge_pending(), which every dispatcher run calls.
-- 4. REDEEMING. waitlist_redeem_invitation(token), for the app's server (service role, through
--    POST /api/invitations/redeem with its own secret): the first call with a live token turns the
--    entry 'joined' and answers who it is; a used, expired or unknown token answers which, naming
--    nobody. Joining writes a 'slack_joined' message (how long after the invitation, how many of
--    those invited have joined).
-- 5. ONE CLICK OFF THE LIST. The dispatcher also mints an unsubscribe token for every e-mail to a
--    person on the list (private.waitlist_unsubscribe_tokens, hash only, no expiry: an old e-mail's
--    link still works). waitlist_unsubscribe(token) erases the entry as "Delete me" does, without
--    the e-mail confirming it: someone who asked for no more mail gets none.
--
-- Never edit this file once applied; change settings with an update in a later migration.

create table private.waitlist_invitation_settings (
  singleton boolean primary key default true check (singleton),
  invitation_ttl interval not null check (invitation_ttl > interval '0'),
  reminder_after interval not null check (reminder_after > interval '0')
);
comment on table private.waitlist_invitation_settings is
  'How long an invitation lasts and when its one reminder goes (one row). Change them with an update in a migration.';
insert into private.waitlist_invitation_settings values (true, interval '14 days', interval '5 days');

-- ---------------------------------------------------------------------------
-- 1. Statuses

alter table public.waitlist drop constraint waitlist_status_known, drop constraint waitlist_confirmed_time;
alter table public.waitlist
  add constraint waitlist_status_known check (status in ('pending', 'confirmed', 'invited', 'joined')),
  -- Invited and joined people confirmed first; entries from before double opt-in have no time.
  add constraint waitlist_confirmed_time check (status <> 'pending' or confirmed_at is null),
  add column invited_at timestamptz,
  add column joined_at timestamptz,
  add column founding_member boolean not null default true,
  add constraint waitlist_step_times check (
    (status in ('pending', 'confirmed') and invited_at is null and joined_at is null)
    or (status = 'invited' and invited_at is not null and joined_at is null)
    or (status = 'joined' and invited_at is not null and joined_at is not null)
  );
comment on column public.waitlist.invited_at is 'When the open invitation was made (null unless invited or joined).';
comment on column public.waitlist.joined_at is 'When the person redeemed their invitation in the product''s app.';
comment on column public.waitlist.founding_member is 'Founding-member pricing is theirs (everyone invited from the waitlist, unless the owner says otherwise).';
drop index public.waitlist_pending_confirm_by;
create index waitlist_pending_confirm_by on public.waitlist (confirm_by) where status = 'pending';
create index waitlist_status on public.waitlist (status);

create function private.waitlist_status_transition()
returns trigger
language plpgsql
security definer
set search_path = ''
as $$
begin
  if new.status is not distinct from old.status then
    return new;
  end if;
  if (old.status, new.status) not in (('pending', 'confirmed'), ('confirmed', 'invited'), ('invited', 'joined'), ('invited', 'confirmed')) then
    raise exception 'A waitlist entry cannot go from % to %.', old.status, new.status
      using errcode = '23514', hint = 'Entries move pending -> confirmed -> invited -> joined; an expired invitation goes back to confirmed.';
  end if;
  if new.status = 'invited' then
    new.invited_at := pg_catalog.now();
  elsif new.status = 'joined' then
    new.joined_at := pg_catalog.now();
  elsif old.status = 'invited' then
    new.invited_at := null;
  end if;
  return new;
end
$$;

create trigger waitlist_status_transition
  before update of status on public.waitlist
  for each row execute function private.waitlist_status_transition();

-- ---------------------------------------------------------------------------
-- 2-3. Invitations

create table private.waitlist_invitations (
  id uuid primary key default gen_random_uuid(),
  entry_id uuid not null references public.waitlist (id) on delete cascade,
  invited_at timestamptz not null default now(),
  expires_at timestamptz not null,
  out_of_order boolean not null default false,
  reminded_at timestamptz,
  redeemed_at timestamptz,
  expired_at timestamptz,
  constraint waitlist_invitations_one_end check (redeemed_at is null or expired_at is null)
);
comment on table private.waitlist_invitations is
  'Every invitation: when it was made, whether out of order, reminded, redeemed, or expired unused (the person then went back in line).';
-- At most one open invitation per entry.
create unique index waitlist_invitations_open on private.waitlist_invitations (entry_id) where redeemed_at is null and expired_at is null;
create index waitlist_invitations_due on private.waitlist_invitations (expires_at) where redeemed_at is null and expired_at is null;

create table private.waitlist_invitation_tokens (
  token_hash text primary key check (token_hash ~ '^[0-9a-f]{64}$'),
  invitation_id uuid not null references private.waitlist_invitations (id) on delete cascade,
  created_at timestamptz not null default now()
);
comment on table private.waitlist_invitation_tokens is
  'SHA-256 (hex) of each invitation link''s token (the invitation e-mail''s, the reminder''s, the person''s page''s); any of them redeems its invitation, once.';
create index waitlist_invitation_tokens_invitation on private.waitlist_invitation_tokens (invitation_id);

create table private.waitlist_unsubscribe_tokens (
  token_hash text primary key check (token_hash ~ '^[0-9a-f]{64}$'),
  entry_id uuid not null references public.waitlist (id) on delete cascade,
  created_at timestamptz not null default now()
);
comment on table private.waitlist_unsubscribe_tokens is
  'SHA-256 (hex) of the one-click unsubscribe token of each e-mail sent to a person on the list; it only takes that person off.';
create index waitlist_unsubscribe_tokens_entry on private.waitlist_unsubscribe_tokens (entry_id);

alter table public.waitlist_outbox drop constraint waitlist_outbox_kind_check;
alter table public.waitlist_outbox
  add constraint waitlist_outbox_kind_check check (kind in (
    'confirmation_email', 'access_email', 'invitation_email', 'reminder_email', 'slack_confirmed', 'slack_joined', 'erasure_email'
  ));

-- The messages each step causes, in the same transaction. As in the confirmation migration, and:
-- Slack hears of a confirmation only the first time (not when an expired invitation puts someone
-- back in line); an invitation is written with its e-mail; joining tells Slack.
create or replace function private.waitlist_enqueue_messages()
returns trigger
language plpgsql
security definer
set search_path = ''
as $$
declare
  total bigint;
  invitation private.waitlist_invitations;
  settings private.waitlist_invitation_settings;
begin
  if tg_op = 'INSERT' and new.status = 'pending' then
    insert into public.waitlist_outbox (entry_id, kind) values (new.id, 'confirmation_email');
  elsif new.status = 'confirmed' and (tg_op = 'INSERT' or old.status = 'pending') then
    -- One confirmation at a time, so each message carries its own running total.
    perform pg_catalog.pg_advisory_xact_lock(pg_catalog.hashtext('waitlist confirmed total'));
    select count(*) into total from public.waitlist w where w.status in ('confirmed', 'invited', 'joined');
    insert into public.waitlist_outbox (entry_id, kind, payload)
    values (new.id, 'slack_confirmed', pg_catalog.jsonb_build_object('total', total));
  elsif tg_op = 'UPDATE' and new.status = 'invited' and old.status = 'confirmed' then
    select * into strict settings from private.waitlist_invitation_settings;
    insert into private.waitlist_invitations (entry_id, invited_at, expires_at)
    values (new.id, new.invited_at, new.invited_at + settings.invitation_ttl)
    returning * into invitation;
    insert into public.waitlist_outbox (entry_id, kind, payload)
    values (new.id, 'invitation_email', pg_catalog.jsonb_build_object('invitation_id', invitation.id));
  elsif tg_op = 'UPDATE' and new.status = 'joined' and old.status = 'invited' then
    perform pg_catalog.pg_advisory_xact_lock(pg_catalog.hashtext('waitlist joined total'));
    insert into public.waitlist_outbox (entry_id, kind, payload)
    values (new.id, 'slack_joined', pg_catalog.jsonb_build_object(
      'invited_at', new.invited_at,
      'joined_at', new.joined_at,
      'joined', (select count(*) from private.waitlist_invitations i where i.redeemed_at is not null),
      'invited', (select count(distinct i.entry_id) from private.waitlist_invitations i)
    ));
  end if;
  return null;
end
$$;

-- A referral is credited when the referred person first confirms, not when they come back in line.
create or replace function private.waitlist_referral_credit()
returns trigger
language plpgsql
security definer
set search_path = ''
as $$
begin
  if new.status = 'confirmed' and new.referred_by is not null and (tg_op = 'INSERT' or old.status = 'pending') then
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

-- The head of the line, for the owner: place, name, e-mail and status of the next `n` to invite.
create function public.waitlist_line_head(n integer default 20)
returns jsonb
language sql
stable
security definer
set search_path = ''
as $$
  select coalesce(pg_catalog.jsonb_agg(pg_catalog.jsonb_build_object(
           'place', l.place, 'id', w.id, 'name', w.name, 'email', w.email, 'project', w.project,
           'referral_credits', w.referral_credits, 'confirmed_at', w.confirmed_at
         ) order by l.place), '[]'::jsonb)
    from (select * from private.waitlist_line() x order by x.place limit greatest(0, least(n, 10000))) l
    join public.waitlist w on w.id = l.entry_id
$$;

-- Invites the next `n` confirmed people in place order, or only says who they would be.
create function public.waitlist_invite_next(n integer, dry_run boolean default false)
returns jsonb
language plpgsql
volatile
security definer
set search_path = ''
as $$
declare
  chosen jsonb;
begin
  if n is null or n < 1 or n > 10000 then
    raise exception 'n must be between 1 and 10000' using errcode = '22023';
  end if;
  -- One run at a time: the second waits, then takes the people after the first's.
  perform pg_catalog.pg_advisory_xact_lock(pg_catalog.hashtext('waitlist invite'));
  chosen := public.waitlist_line_head(n);
  if not dry_run then
    update public.waitlist w set status = 'invited'
      from pg_catalog.jsonb_array_elements(chosen) c
     where w.id = (c ->> 'id')::uuid and w.status = 'confirmed';
  end if;
  return chosen;
end
$$;

-- Invites one confirmed person out of order (or, dry, only says so); says why not for anyone else.
create function public.waitlist_invite_email(address text, dry_run boolean default false)
returns jsonb
language plpgsql
volatile
security definer
set search_path = ''
as $$
declare
  entry public.waitlist;
  place bigint;
begin
  perform pg_catalog.pg_advisory_xact_lock(pg_catalog.hashtext('waitlist invite'));
  select * into entry from public.waitlist w where w.email_key = pg_catalog.lower(waitlist_rules.normalize_email(address)) for update;
  if not found then
    return pg_catalog.jsonb_build_object('invited', false, 'reason', 'not on the list');
  end if;
  if entry.status <> 'confirmed' then
    return pg_catalog.jsonb_build_object('invited', false, 'reason', pg_catalog.format('status is %s', entry.status));
  end if;
  select l.place into place from private.waitlist_line() l where l.entry_id = entry.id;
  if not dry_run then
    update public.waitlist set status = 'invited' where id = entry.id;
    update private.waitlist_invitations set out_of_order = true where entry_id = entry.id and redeemed_at is null and expired_at is null;
  end if;
  return pg_catalog.jsonb_build_object('invited', not dry_run, 'place', place, 'name', entry.name, 'email', entry.email);
end
$$;

-- As in the abuse migration, and the invitation e-mails: a token for the entry's open invitation
-- (null when it was redeemed or has expired meanwhile); returns the date the e-mail states.
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
  invitation private.waitlist_invitations;
  expires timestamptz;
begin
  select * into strict settings from private.waitlist_confirmation_settings;
  select * into message from public.waitlist_outbox o
   where o.id = message_id and o.lease_id = lease and o.status = 'sending' and o.lease_until > pg_catalog.now()
     and o.kind in ('confirmation_email', 'access_email', 'invitation_email', 'reminder_email');
  if not found then
    return null;
  end if;
  select * into entry from public.waitlist w where w.id = message.entry_id for update;
  if not found then
    return null;
  end if;
  if message.kind in ('invitation_email', 'reminder_email') then
    select * into invitation from private.waitlist_invitations i
     where i.entry_id = entry.id and i.redeemed_at is null and i.expired_at is null and i.expires_at > pg_catalog.now();
    if not found or entry.status <> 'invited' then
      return null;
    end if;
    insert into private.waitlist_invitation_tokens (token_hash, invitation_id) values (new_token_hash, invitation.id);
    return invitation.expires_at;
  end if;
  if (message.kind = 'confirmation_email' and (entry.status <> 'pending' or entry.confirm_by <= pg_catalog.now()))
     or (message.kind = 'access_email' and entry.status = 'pending') then
    return null;
  end if;
  expires := pg_catalog.now() + settings.access_ttl;
  insert into private.waitlist_tokens (token_hash, entry_id, expires_at) values (new_token_hash, entry.id, expires);
  return case when message.kind = 'confirmation_email' then least(entry.confirm_by, expires) else expires end;
end
$$;

-- The one-click unsubscribe token of an e-mail to a person on the list. False when the lease is
-- lost or the message has no entry (an erasure e-mail: its person has already left).
create function public.waitlist_outbox_attach_unsubscribe(message_id uuid, lease uuid, new_token_hash text)
returns boolean
language plpgsql
volatile
security definer
set search_path = ''
as $$
declare
  entry_id uuid;
begin
  select o.entry_id into entry_id from public.waitlist_outbox o
   where o.id = message_id and o.lease_id = lease and o.status = 'sending' and o.lease_until > pg_catalog.now() and o.entry_id is not null;
  if entry_id is null then
    return false;
  end if;
  insert into private.waitlist_unsubscribe_tokens (token_hash, entry_id) values (new_token_hash, entry_id);
  return true;
end
$$;

-- ---------------------------------------------------------------------------
-- 4. Redeeming (the app's server) and the person's own page

create function public.waitlist_redeem_invitation(token text)
returns jsonb
language plpgsql
volatile
security definer
set search_path = ''
as $$
declare
  invitation private.waitlist_invitations;
  entry public.waitlist;
begin
  if token is null or token !~ '^[A-Za-z0-9_-]{43}$' then
    return pg_catalog.jsonb_build_object('error', 'unknown');
  end if;
  select i.* into invitation
    from private.waitlist_invitation_tokens k
    join private.waitlist_invitations i on i.id = k.invitation_id
   where k.token_hash = pg_catalog.encode(pg_catalog.sha256(pg_catalog.convert_to(token, 'UTF8')), 'hex')
   for update of i;
  if not found then
    return pg_catalog.jsonb_build_object('error', 'unknown');
  end if;
  if invitation.redeemed_at is not null then
    return pg_catalog.jsonb_build_object('error', 'used');
  end if;
  if invitation.expired_at is not null or invitation.expires_at <= pg_catalog.now() then
    return pg_catalog.jsonb_build_object('error', 'expired');
  end if;
  update private.waitlist_invitations set redeemed_at = pg_catalog.now() where id = invitation.id;
  update public.waitlist set status = 'joined' where id = invitation.entry_id returning * into entry;
  return pg_catalog.jsonb_build_object(
    'name', entry.name, 'email', entry.email, 'company', entry.project,
    'founding_member', entry.founding_member, 'invited_at', invitation.invited_at, 'joined_at', entry.joined_at
  );
end
$$;
comment on function public.waitlist_redeem_invitation(text) is
  'For the product''s app (service role, through POST /api/invitations/redeem): redeems an invitation once and says whose it is; {"error": "unknown" | "used" | "expired"} otherwise.';

-- As in the abuse migration, and an invited or joined person's page: their invitation, or that they joined.
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
    return pg_catalog.jsonb_build_object('status', 'invited', 'invited_at', (held.entry).invited_at, 'invitation_expires_at', invitation.expires_at);
  end if;
  if (held.entry).status = 'joined' then
    return pg_catalog.jsonb_build_object('status', 'joined', 'joined_at', (held.entry).joined_at);
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

-- The way in, from the person's own page: a fresh token for their open invitation (the e-mailed
-- ones keep working), minted here and returned to the holder of their link only; null otherwise.
create function public.waitlist_invitation_link(token text)
returns text
language plpgsql
volatile
security definer
set search_path = ''
as $$
declare
  entry public.waitlist := private.waitlist_entry_for_token(token);
  invitation private.waitlist_invitations;
  fresh text;
begin
  if entry.id is null or entry.status <> 'invited' then
    return null;
  end if;
  select * into invitation from private.waitlist_invitations i
   where i.entry_id = entry.id and i.redeemed_at is null and i.expired_at is null and i.expires_at > pg_catalog.now();
  if not found then
    return null;
  end if;
  -- 32 bytes from two random UUIDs (244 random bits), base64url without padding: 43 characters.
  fresh := pg_catalog.rtrim(pg_catalog.translate(pg_catalog.encode(
    pg_catalog.uuid_send(gen_random_uuid()) || pg_catalog.uuid_send(gen_random_uuid()), 'base64'), '+/', '-_'), '=');
  insert into private.waitlist_invitation_tokens (token_hash, invitation_id)
  values (pg_catalog.encode(pg_catalog.sha256(pg_catalog.convert_to(fresh, 'UTF8')), 'hex'), invitation.id);
  return fresh;
end
$$;

-- As in the referrals migration, and the person's invitations (times only: their tokens are secrets).
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

-- ---------------------------------------------------------------------------
-- 5. One click off the list

create function public.waitlist_unsubscribe(token text)
returns boolean
language plpgsql
volatile
security definer
set search_path = ''
as $$
declare
  entry_id uuid;
begin
  if token is null or token !~ '^[A-Za-z0-9_-]{43}$' then
    return false;
  end if;
  select k.entry_id into entry_id from private.waitlist_unsubscribe_tokens k
   where k.token_hash = pg_catalog.encode(pg_catalog.sha256(pg_catalog.convert_to(token, 'UTF8')), 'hex');
  if entry_id is null then
    return false;
  end if;
  delete from public.waitlist w where w.id = entry_id;
  return true;
end
$$;
comment on function public.waitlist_unsubscribe(text) is
  'One-click unsubscribe (RFC 8058), for the site''s /api/unsubscribe (service role): erases the entry the token belongs to, with no further e-mail. False for any other token.';

-- ---------------------------------------------------------------------------
-- Housekeeping on every dispatcher run: as in the abuse migration, and the invitations' reminders
-- and expiry.

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
  delete from public.waitlist w
   where w.status = 'pending'
     and w.confirm_by + settings.purge_pending_after < pg_catalog.now();
  get diagnostics deleted = row_count;
  delete from private.waitlist_tokens k where k.expires_at < pg_catalog.now() - interval '30 days';
  delete from private.waitlist_mail_log l where l.created_at < pg_catalog.now() - greatest(caps.recipient_window, interval '1 hour');

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

revoke all on all functions in schema private from public, anon, authenticated, service_role;
revoke all on function public.waitlist_line_head(integer), public.waitlist_invite_next(integer, boolean), public.waitlist_invite_email(text, boolean),
  public.waitlist_outbox_attach_unsubscribe(uuid, uuid, text), public.waitlist_redeem_invitation(text), public.waitlist_unsubscribe(text),
  public.waitlist_invitation_link(text)
  from public, anon, authenticated, service_role;
grant execute on function public.waitlist_line_head(integer), public.waitlist_invite_next(integer, boolean), public.waitlist_invite_email(text, boolean),
  public.waitlist_outbox_attach_unsubscribe(uuid, uuid, text), public.waitlist_redeem_invitation(text), public.waitlist_unsubscribe(text)
  to service_role;
grant execute on function public.waitlist_invitation_link(text) to anon, service_role;
