-- Invitations: letting people in, in the order they earned.
--
-- Guarantees:
--   * An entry moves pending -> confirmed -> invited -> joined and nothing else (the
--     waitlist_status_transition trigger); invited -> confirmed only when an invitation expires
--     unused. Every invitation, used or not, is a row of private.waitlist_invitations.
--   * waitlist_invite_next(n, dry_run) takes the head of the line under one advisory lock, so two
--     runs never pick the same person; waitlist_invite_email invites one person out of order.
--     Turning an entry 'invited' writes its invitation and its e-mail in the same transaction.
--   * An invitation's link token is minted by the dispatcher (hash only, in
--     private.waitlist_invitation_tokens). It expires invitation_ttl after the invitation; one
--     reminder goes reminder_after it if still unused. At expiry the person goes back in line at
--     the place they had earned (waitlist_purge_pending, 07_outbox.sql).
--   * waitlist_redeem_invitation(token), for the product's app (service role): the first call with
--     a live token turns the entry 'joined' and answers who it is, with their language; a used,
--     expired or unknown token answers which, naming nobody.
--
-- TypeScript twins: components/waitlist/invitations.ts (redeeming), tools/owner/owner.ts and
-- tools/owner/console/invite.ts (inviting).

create table private.waitlist_invitation_settings (
  singleton boolean primary key default true check (singleton),
  invitation_ttl interval not null check (invitation_ttl > interval '0'),
  reminder_after interval not null check (reminder_after > interval '0')
);

comment on table private.waitlist_invitation_settings is
  'How long an invitation lasts and when its one reminder goes (one row). Change them with an update in a migration.';

revoke all on table private.waitlist_invitation_settings from public, anon, authenticated, service_role;

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

-- An erasure's cascade, and private.waitlist_invitation_tally, find an entry's invitations by it.
create index waitlist_invitations_entry on private.waitlist_invitations (entry_id);

revoke all on table private.waitlist_invitations from public, anon, authenticated, service_role;

create table private.waitlist_invitation_tokens (
  token_hash text primary key check (token_hash ~ '^[0-9a-f]{64}$'),
  invitation_id uuid not null references private.waitlist_invitations (id) on delete cascade,
  created_at timestamptz not null default now()
);

comment on table private.waitlist_invitation_tokens is
  'SHA-256 (hex) of each invitation link''s token (the invitation e-mail''s, the reminder''s, the person''s page''s); any of them redeems its invitation, once.';

create index waitlist_invitation_tokens_invitation on private.waitlist_invitation_tokens (invitation_id);

revoke all on table private.waitlist_invitation_tokens from public, anon, authenticated, service_role;

-- The counts Slack's join message carries, as rows added to private.waitlist_line_counts (05_line.sql)
-- by each statement, never one row everyone updates: 'invited', the entries on the list ever
-- invited (an entry's first invitation, until it is erased), and 'joined', the invitations redeemed.
create function private.waitlist_invitation_tally()
returns trigger
language plpgsql
security definer
set search_path = ''
as $$
declare
  invited bigint := 0;
  joined bigint := 0;
begin
  if tg_op = 'INSERT' then
    select count(distinct n.entry_id) into invited from new_rows n
     where not exists (select 1 from private.waitlist_invitations i where i.entry_id = n.entry_id and i.id <> n.id);
  elsif tg_op = 'UPDATE' then
    select count(*) filter (where n.redeemed_at is not null and o.redeemed_at is null)
           - count(*) filter (where n.redeemed_at is null and o.redeemed_at is not null)
      into joined
      from new_rows n join old_rows o on o.id = n.id;
  else
    select count(*) into joined from old_rows o where o.redeemed_at is not null;
    joined := -joined;
    select -count(distinct o.entry_id) into invited from old_rows o
     where not exists (select 1 from private.waitlist_invitations i where i.entry_id = o.entry_id);
  end if;
  insert into private.waitlist_line_counts (counter, bucket, entries)
  select d.counter, 0, d.entries from (values ('invited', invited), ('joined', joined)) d (counter, entries) where d.entries <> 0;
  return null;
end
$$;

revoke all on function private.waitlist_invitation_tally() from public, anon, authenticated, service_role;

create trigger waitlist_invitation_tally_insert
  after insert on private.waitlist_invitations
  referencing new table as new_rows
  for each statement execute function private.waitlist_invitation_tally();

create trigger waitlist_invitation_tally_update
  after update on private.waitlist_invitations
  referencing old table as old_rows new table as new_rows
  for each statement execute function private.waitlist_invitation_tally();

create trigger waitlist_invitation_tally_delete
  after delete on private.waitlist_invitations
  referencing old table as old_rows
  for each statement execute function private.waitlist_invitation_tally();

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

revoke all on function private.waitlist_status_transition() from public, anon, authenticated, service_role;

create trigger waitlist_status_transition
  before update of status on public.waitlist
  for each row execute function private.waitlist_status_transition();

-- Invites the next `n` confirmed people in place order (with a segment, the next `n` of those who
-- answered so: 15_questions.sql), or only says who they would be.
create function public.waitlist_invite_next(n integer, dry_run boolean default false, segment jsonb default null)
returns jsonb
language plpgsql
volatile
security definer
set search_path = ''
as $$
declare
  chosen jsonb;
  ids uuid[];
begin
  if n is null or n < 1 or n > 10000 then
    raise exception 'n must be between 1 and 10000' using errcode = '22023';
  end if;
  -- One run at a time: the second waits, then takes the people after the first's.
  perform pg_catalog.pg_advisory_xact_lock(pg_catalog.hashtext('waitlist invite'));
  chosen := public.waitlist_line_head(n, segment);
  if not dry_run then
    ids := array(select w.id from public.waitlist w
                  where w.id = any (array(select (c ->> 'id')::uuid from pg_catalog.jsonb_array_elements(chosen) c)) and w.status = 'confirmed'
                  for update of w);
    -- Out of the line in one statement (one change of the counts), so the row trigger
    -- (private.waitlist_arrival) finds each key already gone instead of writing 10,000 changes.
    update private.waitlist_line l set line_key = null where l.entry_id = any (ids) and l.line_key is not null;
    update public.waitlist w set status = 'invited' where w.id = any (ids);
  end if;
  return chosen;
end
$$;

revoke all on function public.waitlist_invite_next(integer, boolean, jsonb) from public, anon, authenticated, service_role;
grant execute on function public.waitlist_invite_next(integer, boolean, jsonb) to service_role;

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
  place := private.waitlist_place(entry.id);
  if not dry_run then
    update public.waitlist set status = 'invited' where id = entry.id;
    update private.waitlist_invitations set out_of_order = true where entry_id = entry.id and redeemed_at is null and expired_at is null;
  end if;
  return pg_catalog.jsonb_build_object('invited', not dry_run, 'place', place, 'name', entry.name, 'email', entry.email);
end
$$;

revoke all on function public.waitlist_invite_email(text, boolean) from public, anon, authenticated, service_role;
grant execute on function public.waitlist_invite_email(text, boolean) to service_role;

-- Redeems an invitation once and answers who it is, with their language, so the product's app can
-- greet them in it.
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
    'founding_member', entry.founding_member, 'invited_at', invitation.invited_at, 'joined_at', entry.joined_at,
    'language', entry.language
  );
end
$$;

comment on function public.waitlist_redeem_invitation(text) is
  'For the product''s app (service role, through POST /api/invitations/redeem): redeems an invitation once and says whose it is, with their language; {"error": "unknown" | "used" | "expired"} otherwise.';

revoke all on function public.waitlist_redeem_invitation(text) from public, anon, authenticated, service_role;
grant execute on function public.waitlist_redeem_invitation(text) to service_role;

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

revoke all on function public.waitlist_invitation_link(text) from public, anon, authenticated, service_role;
grant execute on function public.waitlist_invitation_link(text) to anon, service_role;
