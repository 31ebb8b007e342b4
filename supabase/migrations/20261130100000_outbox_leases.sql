-- The outbox under a slow receiver and an erasure mid-flight (issue #50, items 3 and 4): a message is
-- handed to its transport only after a last check in the database (waitlist_outbox_begin_send: the
-- lease holds, the person is still there), completing or failing it needs a live lease, a run puts
-- back what it had no time for (waitlist_outbox_release), e-mails are claimed before Slack and
-- webhooks, and entry.left waits for a delivery about the person still on the wire.
-- supabase/schemas/07_outbox.sql is the current definition and says what this guarantees.
--
-- Never edit this file once applied; change it with a later migration.

alter table public.waitlist_outbox
  add column handed_at timestamptz,
  add column counted boolean not null default false;

-- A message 'sending' now was claimed by a dispatcher that knew no hand-over: it may be on the wire,
-- so it keeps its old fate (in doubt after the lease, a webhook sent again). An e-mail claimed
-- before was counted against the caps when first claimed.
update public.waitlist_outbox set handed_at = now() where status = 'sending';
update public.waitlist_outbox set counted = true where kind like '%\_email' and (attempts > 0 or status <> 'pending');

alter table public.waitlist_outbox
  add constraint waitlist_outbox_handed check (handed_at is null or status = 'sending') not valid;

alter table public.waitlist_outbox validate constraint waitlist_outbox_handed;

comment on column public.waitlist_outbox.handed_at is
  'When the dispatcher, under the current lease, handed the message to its transport (waitlist_outbox_begin_send); null while it has not, and once the message leaves ''sending''.';

comment on column public.waitlist_outbox.counted is
  'An e-mail already counted against the caps (logged in private.waitlist_mail_log when first claimed); a message put back and claimed again is not counted twice.';

-- The person as a claimed message carries them (components/waitlist/outbox/dispatch.ts, ClaimedEntry):
-- read by the claim, and again right before the send (waitlist_outbox_begin_send).
create function private.waitlist_outbox_entry(w public.waitlist)
returns jsonb
language sql
stable
set search_path = ''
as $$
  select pg_catalog.jsonb_build_object(
    'id', w.id, 'name', w.name, 'email', w.email, 'project', w.project,
    'utm_source', w.utm_source, 'utm_medium', w.utm_medium, 'utm_campaign', w.utm_campaign,
    'referrer_host', w.referrer_host, 'landing_path', w.landing_path
  )
$$;

revoke all on function private.waitlist_outbox_entry(public.waitlist) from public, anon, authenticated, service_role;

-- Claims due messages under a lease, within the e-mail caps (one claim at a time decides, an
-- advisory lock). An expired lease puts a message never handed to its transport back in line, and
-- makes one handed over 'in_doubt' (a webhook: pending again). E-mails are claimed first, so due
-- webhooks (a hung receiver's retries) never fill a claim ahead of a sign-up's link; update
-- e-mails after every other due message: they share the hourly cap (500) with the links people
-- are waiting for, and a post to a long list would otherwise put the next sign-up's confirmation
-- hours behind it. Each message says how long its lease is (lease_ms): the dispatcher's budget.
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
  logged uuid[] := '{}';
  claimed jsonb;
begin
  select * into strict settings from private.waitlist_confirmation_settings;
  select * into strict caps from private.waitlist_mail_caps;

  -- Never handed to a transport (waitlist_outbox_begin_send refuses once the lease is over): nothing
  -- left, so it goes back in line, the attempt uncounted.
  update public.waitlist_outbox o
     set status = 'pending', lease_id = null, lease_until = null, available_at = pg_catalog.now(), attempts = o.attempts - 1
   where o.status = 'sending' and o.lease_until < pg_catalog.now() and o.handed_at is null;

  update public.waitlist_outbox o
     set status = 'in_doubt', lease_id = null, lease_until = null, handed_at = null,
         last_error = 'The dispatcher stopped between sending and marking this message; it may have been delivered, so it is not sent again.'
   where o.status = 'sending' and o.lease_until < pg_catalog.now() and o.kind <> 'webhook';

  -- A webhook is delivered at least once: its receiver drops a duplicate by its webhook-id.
  update public.waitlist_outbox o
     set status = 'pending', lease_id = null, lease_until = null, handed_at = null, available_at = pg_catalog.now(),
         last_error = 'The dispatcher stopped before marking this delivery; it is sent again with the same webhook-id.'
   where o.status = 'sending' and o.lease_until < pg_catalog.now() and o.kind = 'webhook';

  update public.waitlist_outbox o
     set status = 'skipped', note = 'The entry was confirmed before this e-mail was sent.'
    from public.waitlist w
   where o.entry_id = w.id and o.kind = 'confirmation_email' and o.status = 'pending' and w.status <> 'pending';

  perform pg_catalog.pg_advisory_xact_lock(pg_catalog.hashtext('waitlist mail caps'));
  select caps.emails_per_hour - count(*) into budget
    from private.waitlist_mail_log l where l.created_at > pg_catalog.now() - interval '1 hour';

  for candidate in
    select o.id, o.kind, o.counted, coalesce(w.email, o.payload ->> 'email') as email
      from public.waitlist_outbox o
      left join public.waitlist w on w.id = o.entry_id
     where o.status = 'pending' and o.available_at <= pg_catalog.now()
     -- Update e-mails last: a broadcast to thousands waits for the hourly cap, and must not hold
     -- back the links a new sign-up is waiting for (or an invitation) behind it. Slack and webhooks
     -- after the other e-mails: their retries pile up while a receiver is down.
     order by o.kind = 'update_email', o.kind not like '%\_email', o.available_at, o.created_at
     limit 500
     for update of o skip locked
  loop
    exit when pg_catalog.cardinality(taken) >= greatest(0, least(max_messages, 100));
    if candidate.kind like '%\_email' and not candidate.counted then
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
      logged := logged || candidate.id;
    end if;
    taken := taken || candidate.id;
  end loop;

  with grabbed as (
    update public.waitlist_outbox o
       set status = 'sending', lease_id = gen_random_uuid(), lease_until = pg_catalog.now() + settings.lease,
           attempts = o.attempts + 1, counted = o.counted or o.id = any (logged)
     where o.id = any (taken)
     returning o.*
  )
  select coalesce(pg_catalog.jsonb_agg(pg_catalog.jsonb_build_object(
           'id', t.id, 'kind', t.kind, 'lease_id', t.lease_id, 'attempts', t.attempts, 'payload', t.payload,
           'lease_ms', (extract(epoch from settings.lease) * 1000)::bigint,
           'entry', case when w.id is null then null else private.waitlist_outbox_entry(w) end
         ) order by t.kind = 'update_email', t.kind not like '%\_email', t.available_at, t.created_at), '[]'::jsonb)
    into claimed
    from grabbed t
    left join public.waitlist w on w.id = t.entry_id;
  return claimed;
end
$$;

revoke all on function public.waitlist_outbox_claim(integer) from public, anon, authenticated, service_role;
grant execute on function public.waitlist_outbox_claim(integer) to service_role;

-- The last check before a message leaves, in one statement with the claim's: the lease still
-- holds (and this run's), the message was not handed over yet under it, and the person it is about
-- is still there (an erasure deletes the message with them). Records the hand-over and returns
-- {"entry": the person as now written, or null for a message about nobody}; null when it must not
-- be sent. The person's row is locked first (as an erasure locks it before its cascade reaches the
-- message: no deadlock), until this commits: an erasure waits, then sees the message handed over
-- (waitlist_webhook_left); one that came first leaves no person to find.
create function public.waitlist_outbox_begin_send(message_id uuid, lease uuid)
returns jsonb
language plpgsql
volatile
security definer
set search_path = ''
as $$
declare
  about uuid;
  message public.waitlist_outbox;
  person public.waitlist;
begin
  select o.entry_id into about from public.waitlist_outbox o where o.id = message_id;
  if about is not null then
    select * into person from public.waitlist w where w.id = about for share;
    if not found then
      return null;
    end if;
  end if;
  select * into message from public.waitlist_outbox o
   where o.id = message_id and o.lease_id = lease and o.status = 'sending' and o.lease_until > pg_catalog.now() and o.handed_at is null
     and o.entry_id is not distinct from about
     for update;
  if not found then
    return null;
  end if;
  update public.waitlist_outbox o set handed_at = pg_catalog.now() where o.id = message.id;
  return pg_catalog.jsonb_build_object('entry', case when message.entry_id is null then null else private.waitlist_outbox_entry(person) end);
end
$$;

revoke all on function public.waitlist_outbox_begin_send(uuid, uuid) from public, anon, authenticated, service_role;
grant execute on function public.waitlist_outbox_begin_send(uuid, uuid) to service_role;

-- Marks a claimed message done ('sent' or 'skipped', with a note). False when the lease ran out or
-- is another run's: nothing changes then (the claim that follows decides). 'sent' only after
-- waitlist_outbox_begin_send: a message marked sent was handed over under this lease.
create or replace function public.waitlist_outbox_complete(message_id uuid, lease uuid, outcome text default 'sent', outcome_note text default null)
returns boolean
language plpgsql
volatile
security definer
set search_path = ''
as $$
declare
  handed timestamptz;
begin
  if outcome not in ('sent', 'skipped') then
    raise exception 'outcome must be sent or skipped' using errcode = '22023';
  end if;
  select o.handed_at into handed from public.waitlist_outbox o
   where o.id = message_id and o.lease_id = lease and o.status = 'sending' and o.lease_until > pg_catalog.now()
     for update;
  if not found then
    return false;
  end if;
  if outcome = 'sent' and handed is null then
    raise exception 'a message is marked sent only after waitlist_outbox_begin_send' using errcode = '55000';
  end if;
  update public.waitlist_outbox o
     set status = outcome, note = pg_catalog.left(outcome_note, 200), sent_at = case when outcome = 'sent' then pg_catalog.now() end,
         lease_id = null, lease_until = null, handed_at = null, last_error = null
   where o.id = message_id;
  return true;
end
$$;

revoke all on function public.waitlist_outbox_complete(uuid, uuid, text, text) from public, anon, authenticated, service_role;
grant execute on function public.waitlist_outbox_complete(uuid, uuid, text, text) to service_role;

-- Records a failed attempt: back to 'pending' after an exponential backoff, or 'failed' after
-- max_attempts (a webhook: once its retry_until has passed, with its own backoff) or when the
-- dispatcher calls the failure `final` (a webhook answered with a redirect or a 4xx other than 408
-- and 429). Returns the new status, or null when the lease was lost.
create or replace function public.waitlist_outbox_fail(message_id uuid, lease uuid, failure text, final boolean default false)
returns text
language plpgsql
volatile
security definer
set search_path = ''
as $$
declare
  settings private.waitlist_confirmation_settings;
  hooks private.waitlist_webhook_settings;
  result text;
begin
  select * into strict settings from private.waitlist_confirmation_settings;
  select * into strict hooks from private.waitlist_webhook_settings;
  update public.waitlist_outbox o
     set status = case
           when coalesce(final, false) then 'failed'
           when o.kind = 'webhook' then case when o.retry_until <= pg_catalog.now() then 'failed' else 'pending' end
           when o.attempts >= settings.max_attempts then 'failed'
           else 'pending'
         end,
         available_at = pg_catalog.now() + case
           when o.kind = 'webhook' then pg_catalog.make_interval(
             secs => least(hooks.retry_max_seconds, hooks.retry_base_seconds * pg_catalog.power(2, least(o.attempts - 1, 30)))
           )
           else pg_catalog.make_interval(
             secs => least(settings.retry_max_seconds, settings.retry_base_seconds * pg_catalog.power(2, least(o.attempts - 1, 30)))
           )
         end,
         last_error = pg_catalog.left(coalesce(failure, 'unknown error'), 500),
         lease_id = null, lease_until = null, handed_at = null
   where o.id = message_id and o.lease_id = lease and o.status = 'sending' and o.lease_until > pg_catalog.now()
  returning o.status into result;
  return result;
end
$$;

revoke all on function public.waitlist_outbox_fail(uuid, uuid, text, boolean) from public, anon, authenticated, service_role;
grant execute on function public.waitlist_outbox_fail(uuid, uuid, text, boolean) to service_role;

-- A claimed message the run had no time for, back in line now: not a failed attempt (the attempt
-- is uncounted). Only one never handed to a transport under this lease, so nothing can go twice;
-- a lease that ran out meanwhile is still this run's to give back while no other run took it.
-- False when there is nothing to put back.
create function public.waitlist_outbox_release(message_id uuid, lease uuid)
returns boolean
language plpgsql
volatile
security definer
set search_path = ''
as $$
begin
  update public.waitlist_outbox o
     set status = 'pending', lease_id = null, lease_until = null, available_at = pg_catalog.now(), attempts = o.attempts - 1
   where o.id = message_id and o.lease_id = lease and o.status = 'sending' and o.handed_at is null;
  return found;
end
$$;

revoke all on function public.waitlist_outbox_release(uuid, uuid) from public, anon, authenticated, service_role;
grant execute on function public.waitlist_outbox_release(uuid, uuid) to service_role;

-- entry.left takes the time it may go: the old three-argument function would make the new one's
-- calls ambiguous.
drop function private.waitlist_enqueue_webhook(text, uuid, jsonb);

create function private.waitlist_enqueue_webhook(p_type text, p_entry uuid, p_data jsonb, p_available_at timestamptz default now())
returns void
language sql
volatile
security definer
set search_path = ''
as $$
  insert into public.waitlist_outbox (entry_id, kind, payload, retry_until, available_at)
  select case when p_type = 'entry.left' then null else p_entry end, 'webhook',
         pg_catalog.jsonb_build_object('type', p_type, 'occurred_at', pg_catalog.now(), 'data', p_data),
         pg_catalog.now() + h.give_up_after, greatest(p_available_at, pg_catalog.now())
    from private.waitlist_webhook_settings h
   where h.enabled
$$;

revoke all on function private.waitlist_enqueue_webhook(text, uuid, jsonb, timestamptz) from public, anon, authenticated, service_role;

drop trigger waitlist_webhook_left on public.waitlist;

-- Leaving (erasure, or an unsubscribe from the list): the founders' tools hear the id, to delete
-- the person. A pending entry's going (unconfirmed, purged) is no event: no tool heard of it.
-- Before the delete, while the person's messages still exist: one a dispatcher handed over may be
-- on the wire until its lease ends (the dispatcher stops every send by then), so entry.left waits
-- for that, and never reaches a receiver before an event that names them. One claimed but not
-- handed over cannot leave any more (waitlist_outbox_begin_send finds no person).
create or replace function private.waitlist_webhook_left()
returns trigger
language plpgsql
security definer
set search_path = ''
as $$
begin
  if old.status <> 'pending' then
    perform private.waitlist_enqueue_webhook('entry.left', null, pg_catalog.jsonb_build_object('id', old.id), coalesce(
      (select max(o.lease_until) from public.waitlist_outbox o where o.entry_id = old.id and o.kind = 'webhook' and o.handed_at is not null),
      pg_catalog.now()
    ));
  end if;
  return old;
end
$$;

revoke all on function private.waitlist_webhook_left() from public, anon, authenticated, service_role;

create trigger waitlist_webhook_left
  before delete on public.waitlist
  for each row execute function private.waitlist_webhook_left();
