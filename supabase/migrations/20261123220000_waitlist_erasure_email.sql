-- "Delete me" sends an e-mail confirming the erasure (issue #18), while the entry and its messages
-- are still erased at once.
--
-- 1. A MESSAGE THAT OUTLIVES ITS ENTRY. waitlist_delete_me(token) now writes an 'erasure_email'
--    to the outbox in the same transaction as the delete: either both happen or neither, so an
--    erasure is never confirmed that did not happen, and never happens unconfirmed. The message
--    has no entry_id at all (null from the start, never "set null" later): the entry is gone when
--    it is sent, and a link to it would only dangle. The other kinds keep `not null` by a check
--    (entry_id is null exactly for erasure messages) and keep ON DELETE CASCADE, so every
--    confirmation e-mail and Slack message of an erased person still vanishes with the entry: no
--    table keeps anything that names them.
--    We chose a null entry over "on delete set null" for every kind because set null would keep
--    the erased person's other messages (their Slack total, their send times) as orphans.
-- 2. ONLY WHAT SENDING NEEDS, ONLY UNTIL IT IS SENT. Its payload is {email, name} (the copy greets
--    by name) and nothing else. The moment the message leaves 'pending'/'sending' for good (sent,
--    skipped, failed after its retries, in doubt after a dispatcher crash) the trigger
--    waitlist_outbox_forget_erasure empties the payload and cuts its last error to the error code
--    (an SMTP error can quote the recipient's address). A check constraint makes any other state
--    impossible, whoever writes the row. While it is pending or being sent the address is there:
--    the one copy of personal data an erasure keeps, for as long as it takes to tell the person.
--    An erasure e-mail still pending after `erasure_email_lifetime` (7 days: SMTP not configured,
--    or down all week) is given up by waitlist_purge_pending(), which the dispatcher calls on every
--    run and pg_cron can call daily, so the address cannot wait in the outbox for ever.
-- 3. THE ROW STAYS AS A BARE RECORD: kind, status, attempts, times and the error code, with no
--    entry, address or name. It tells the owner that erasures were confirmed (and which failed)
--    without naming anyone; deleting it would lose that and gain no privacy.
-- 4. THE DISPATCHER gets erasure messages from waitlist_outbox_claim, replaced here to left-join
--    the entry (`entry` is null for them). Slack is not told of erasures: the founders' feed is
--    about people joining, and a "someone left" post carries nothing they can act on.
-- 5. UNCHANGED: the public key still cannot read or change the outbox (no grant, RLS without a
--    policy), and waitlist_delete_me keeps its rate limit (private.waitlist_entry_for_token).
--
-- Never edit this file once applied; change settings with an update in a later migration.

alter table private.waitlist_confirmation_settings
  add column erasure_email_lifetime interval not null default interval '7 days' check (erasure_email_lifetime > interval '0');

alter table public.waitlist_outbox drop constraint waitlist_outbox_kind_check;
alter table public.waitlist_outbox
  add constraint waitlist_outbox_kind_check check (kind in ('confirmation_email', 'slack_confirmed', 'erasure_email'));
alter table public.waitlist_outbox alter column entry_id drop not null;
alter table public.waitlist_outbox
  add constraint waitlist_outbox_entry_kind check ((entry_id is null) = (kind = 'erasure_email')),
  add constraint waitlist_outbox_erasure_payload check (
    kind <> 'erasure_email'
    -- coalesce: a missing key makes jsonb_typeof null, and a check passes on null.
    or coalesce(case
         when status in ('pending', 'sending') then
           jsonb_typeof(payload -> 'email') = 'string' and jsonb_typeof(payload -> 'name') = 'string' and (payload - 'email' - 'name') = '{}'::jsonb
         else payload = '{}'::jsonb
       end, false)
  );
comment on column public.waitlist_outbox.entry_id is
  'The entry the message is about; null only for an erasure e-mail, whose entry is already gone.';
comment on column public.waitlist_outbox.payload is
  'slack_confirmed: the running total. erasure_email: the recipient''s address and name until the message is done, then {}.';

create function private.waitlist_outbox_forget_erasure()
returns trigger
language plpgsql
security definer
set search_path = ''
as $$
begin
  if new.kind = 'erasure_email' and new.status not in ('pending', 'sending') then
    new.payload := '{}'::jsonb;
    -- The dispatcher writes "<code>: <message>"; the message may quote the address.
    if new.last_error is not null then
      new.last_error := coalesce(pg_catalog.substring(new.last_error, '^([A-Z][A-Z0-9_]{1,39}): '), 'error') || ' (details removed with the address)';
    end if;
  end if;
  return new;
end
$$;

create trigger waitlist_outbox_forget_erasure
  before insert or update on public.waitlist_outbox
  for each row execute function private.waitlist_outbox_forget_erasure();

create or replace function public.waitlist_delete_me(token text)
returns boolean
language plpgsql
volatile
security definer
set search_path = ''
as $$
declare
  entry public.waitlist := private.waitlist_entry_for_token(token, true);
begin
  if entry.id is null then
    return false;
  end if;
  insert into public.waitlist_outbox (kind, payload)
  values ('erasure_email', pg_catalog.jsonb_build_object('email', entry.email, 'name', entry.name));
  delete from public.waitlist w where w.id = entry.id;
  return true;
end
$$;
comment on function public.waitlist_delete_me(text) is
  'Erases the token holder''s entry and its messages now and queues the e-mail confirming it (the address is kept only until that is sent); their referrer keeps the credit. False for any other token. Rate limited per network.';

-- As in 20261123160000_waitlist_confirmation.sql, except that the entry is left-joined: an
-- erasure message has none, and its `entry` is null.
create or replace function public.waitlist_outbox_claim(max_messages integer default 20)
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
           'entry', case when w.id is null then null else pg_catalog.jsonb_build_object(
             'id', w.id, 'name', w.name, 'email', w.email, 'project', w.project,
             'utm_source', w.utm_source, 'utm_medium', w.utm_medium, 'utm_campaign', w.utm_campaign,
             'referrer_host', w.referrer_host, 'landing_path', w.landing_path
           ) end
         ) order by t.created_at), '[]'::jsonb)
    into claimed
    from taken t
    left join public.waitlist w on w.id = t.entry_id;
  return claimed;
end
$$;

-- As before, and also gives up erasure e-mails not sent within erasure_email_lifetime (their
-- payload is emptied by the trigger). Returns how many entries it deleted, as before.
create or replace function public.waitlist_purge_pending()
returns integer
language plpgsql
volatile
security definer
set search_path = ''
as $$
declare
  settings private.waitlist_confirmation_settings;
  deleted integer;
begin
  select * into strict settings from private.waitlist_confirmation_settings;
  update public.waitlist_outbox o
     set status = 'failed',
         note = pg_catalog.left(pg_catalog.format('Not sent within %s; given up, and the address removed.', settings.erasure_email_lifetime), 200)
   where o.kind = 'erasure_email' and o.status = 'pending' and o.created_at + settings.erasure_email_lifetime < pg_catalog.now();
  delete from public.waitlist w
   where w.status = 'pending'
     and w.confirm_by + settings.purge_pending_after < pg_catalog.now();
  get diagnostics deleted = row_count;
  return deleted;
end
$$;

revoke all on function private.waitlist_outbox_forget_erasure() from public, anon, authenticated, service_role;
