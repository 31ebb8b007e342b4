-- Signed webhooks to the founders' own tools (issue #42, part 1): a CRM, a newsletter tool or a
-- spreadsheet automation hears when someone confirms, is invited, joins, earns a referral credit or
-- leaves, the Standard Webhooks way (components/waitlist/outbox/webhook.ts signs and sends).
--
-- 1. EVENTS ARE OUTBOX MESSAGES of a new kind, 'webhook', written by triggers in the same
--    transaction as their fact: entry.confirmed (the first confirmation), entry.invited,
--    entry.joined, referral.credited (whenever referral_credits grows: an unheld credit, or a held
--    one a founder grants; a held credit adds nothing, so no event) and entry.left (an erasure or
--    an unsubscribe deletes a confirmed entry: the id only, entry_id null as for an erasure e-mail).
--    The payload names nobody; the dispatcher reads the name and address when it sends, so a
--    message for a person erased before then goes with their entry (on delete cascade).
-- 2. DELIVERY: at least once. A webhook whose lease expires goes back to pending (not in_doubt:
--    its receiver drops a duplicate by the webhook-id, the message's id). A failure retries with
--    its own backoff (private.waitlist_webhook_settings) until retry_until, a day after the event,
--    then is failed; the dispatcher calls a redirect or a 4xx other than 408/429 final
--    (waitlist_outbox_fail's new `final` argument).
-- 3. FOR THE FOUNDERS: waitlist_webhook_deliveries lists deliveries with their state and last
--    error; waitlist_webhook_resend puts a failed one back, due now. Finished deliveries are deleted
--    after keep_finished (30 days) by waitlist_purge_pending, so with no receiver configured (every
--    event marked skipped at once) no row stays forever.
--
-- Never edit this file once applied; change it with a later migration.

-- ---------------------------------------------------------------------------
-- 1. Settings and the outbox's new kind

create table private.waitlist_webhook_settings (
  singleton boolean primary key default true check (singleton),
  enabled boolean not null default true,
  give_up_after interval not null default interval '1 day' check (give_up_after > interval '0'),
  retry_base_seconds integer not null default 10 check (retry_base_seconds >= 0),
  retry_max_seconds integer not null default 3600 check (retry_max_seconds >= 1),
  keep_finished interval not null default interval '30 days' check (keep_finished >= interval '1 day')
);

comment on table private.waitlist_webhook_settings is
  'Webhook events (one row): written to the outbox while enabled; retried with backoff from retry_base_seconds up to retry_max_seconds for give_up_after, then failed; finished ones deleted after keep_finished.';

revoke all on table private.waitlist_webhook_settings from public, anon, authenticated, service_role;

insert into private.waitlist_webhook_settings (singleton, enabled, give_up_after, retry_base_seconds, retry_max_seconds, keep_finished) values
  ('true', 'true', '1 day', '10', '3600', '30 days');

alter table public.waitlist_outbox add column retry_until timestamptz;

alter table public.waitlist_outbox drop constraint waitlist_outbox_kind_check, drop constraint waitlist_outbox_entry_kind;
alter table public.waitlist_outbox
  add constraint waitlist_outbox_entry_kind check (
    (entry_id is null) = (kind = 'erasure_email' or (kind = 'webhook' and payload ->> 'type' = 'entry.left'))
  ),
  add constraint waitlist_outbox_kind_check check (kind in (
    'confirmation_email', 'access_email', 'invitation_email', 'reminder_email', 'update_email', 'slack_confirmed', 'slack_joined', 'erasure_email', 'webhook'
  )),
  add constraint waitlist_outbox_webhook check (
    kind <> 'webhook'
    or coalesce(payload ->> 'type' in ('entry.confirmed', 'entry.invited', 'entry.joined', 'referral.credited', 'entry.left')
                and jsonb_typeof(payload -> 'data') = 'object' and retry_until is not null, false)
  );

comment on column public.waitlist_outbox.payload is
  'slack_confirmed: the running total. erasure_email: the recipient''s address and name until the message is done, then {}. webhook: {type, occurred_at, data} without a name or address (read when it is sent).';

comment on column public.waitlist_outbox.retry_until is
  'webhook: a failed delivery is retried until then (a day after the event, or after a founder''s resend), then marked failed; null for every other kind.';

-- ---------------------------------------------------------------------------
-- 2. Delivery: a webhook's expired lease, its failures, its finished rows

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
   where o.status = 'sending' and o.lease_until < pg_catalog.now() and o.kind <> 'webhook';

  -- A webhook is delivered at least once: its receiver drops a duplicate by its webhook-id.
  update public.waitlist_outbox o
     set status = 'pending', lease_id = null, lease_until = null, available_at = pg_catalog.now(),
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
    select o.id, o.kind, o.attempts, coalesce(w.email, o.payload ->> 'email') as email
      from public.waitlist_outbox o
      left join public.waitlist w on w.id = o.entry_id
     where o.status = 'pending' and o.available_at <= pg_catalog.now()
     -- Update e-mails last: a broadcast to thousands waits for the hourly cap, and must not hold
     -- back the links a new sign-up is waiting for (or an invitation) behind it.
     order by o.kind = 'update_email', o.available_at, o.created_at
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

drop function public.waitlist_outbox_fail(uuid, uuid, text);

create function public.waitlist_outbox_fail(message_id uuid, lease uuid, failure text, final boolean default false)
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
         lease_id = null, lease_until = null
   where o.id = message_id and o.lease_id = lease and o.status = 'sending'
  returning o.status into result;
  return result;
end
$$;

revoke all on function public.waitlist_outbox_fail(uuid, uuid, text, boolean) from public, anon, authenticated, service_role;
grant execute on function public.waitlist_outbox_fail(uuid, uuid, text, boolean) to service_role;

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
  -- Finished deliveries are kept for the console, then go: with WAITLIST_WEBHOOK_URL unset every
  -- event is marked skipped at once, and its row must not stay forever.
  delete from public.waitlist_outbox o
   where o.kind = 'webhook' and o.status in ('sent', 'skipped', 'failed', 'in_doubt')
     and o.created_at < pg_catalog.now() - (select h.keep_finished from private.waitlist_webhook_settings h);

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

-- ---------------------------------------------------------------------------
-- 3. The events, and the founders' list and resend

-- Webhooks (the Standard Webhooks way, components/waitlist/outbox/webhook.ts): one 'webhook'
-- message per event, written with its fact. The payload holds the event's type, time and the facts
-- that name nobody; the name, company and address are read when it is sent, so an erasure before
-- then takes the message with the entry (on delete cascade), and only entry.left, which carries
-- the id alone, goes out.
create function private.waitlist_enqueue_webhook(p_type text, p_entry uuid, p_data jsonb)
returns void
language sql
volatile
security definer
set search_path = ''
as $$
  insert into public.waitlist_outbox (entry_id, kind, payload, retry_until)
  select case when p_type = 'entry.left' then null else p_entry end, 'webhook',
         pg_catalog.jsonb_build_object('type', p_type, 'occurred_at', pg_catalog.now(), 'data', p_data),
         pg_catalog.now() + h.give_up_after
    from private.waitlist_webhook_settings h
   where h.enabled
$$;

revoke all on function private.waitlist_enqueue_webhook(text, uuid, jsonb) from public, anon, authenticated, service_role;

-- The events of an entry's life: confirmed the first time (not when an expired invitation puts
-- someone back in line), invited, joined, and a referral credit that counts (an unheld one, or a
-- held one when a founder grants it: both add to referral_credits, a held one does not).
create function private.waitlist_webhook_events()
returns trigger
language plpgsql
security definer
set search_path = ''
as $$
begin
  if new.status = 'confirmed' and (tg_op = 'INSERT' or old.status = 'pending') then
    perform private.waitlist_enqueue_webhook('entry.confirmed', new.id, pg_catalog.jsonb_build_object(
      'place', (select l.place from private.waitlist_line() l where l.entry_id = new.id),
      'referred_by', new.referred_by,
      'confirmed_at', new.confirmed_at
    ));
  elsif tg_op = 'UPDATE' and new.status = 'invited' and old.status = 'confirmed' then
    perform private.waitlist_enqueue_webhook('entry.invited', new.id, pg_catalog.jsonb_build_object(
      'invited_at', new.invited_at,
      'expires_at', (select i.expires_at from private.waitlist_invitations i
                      where i.entry_id = new.id and i.redeemed_at is null and i.expired_at is null
                      order by i.invited_at desc limit 1)
    ));
  elsif tg_op = 'UPDATE' and new.status = 'joined' and old.status = 'invited' then
    perform private.waitlist_enqueue_webhook('entry.joined', new.id, pg_catalog.jsonb_build_object(
      'invited_at', new.invited_at, 'joined_at', new.joined_at
    ));
  end if;
  if tg_op = 'UPDATE' and new.referral_credits > old.referral_credits then
    perform private.waitlist_enqueue_webhook('referral.credited', new.id, pg_catalog.jsonb_build_object(
      'referral_credits', new.referral_credits,
      'places_per_referral', (select s.places_per_referral from private.waitlist_referral_settings s),
      'place', (select l.place from private.waitlist_line() l where l.entry_id = new.id)
    ));
  end if;
  return null;
end
$$;

revoke all on function private.waitlist_webhook_events() from public, anon, authenticated, service_role;

create trigger waitlist_webhook_events
  after insert or update of status, referral_credits on public.waitlist
  for each row execute function private.waitlist_webhook_events();

-- Leaving (erasure, or an unsubscribe from the list): the founders' tools hear the id, to delete
-- the person. A pending entry's going (unconfirmed, purged) is no event: no tool heard of it.
create function private.waitlist_webhook_left()
returns trigger
language plpgsql
security definer
set search_path = ''
as $$
begin
  if old.status <> 'pending' then
    perform private.waitlist_enqueue_webhook('entry.left', null, pg_catalog.jsonb_build_object('id', old.id));
  end if;
  return null;
end
$$;

revoke all on function private.waitlist_webhook_left() from public, anon, authenticated, service_role;

create trigger waitlist_webhook_left
  after delete on public.waitlist
  for each row execute function private.waitlist_webhook_left();

-- The deliveries for the founders' console, the failed ones first (they wait for a Resend), then by
-- their latest activity (an event, an attempt, a resend): 'sent', 'retrying' (failed at least
-- once, another attempt due), 'waiting' (not tried yet), 'sending', 'failed', 'skipped' (no
-- receiver configured), 'in_doubt'; with the last error (addresses and names redacted).
create function public.waitlist_webhook_deliveries(max_rows integer default 50)
returns jsonb
language sql
stable
security definer
set search_path = ''
as $$
  select coalesce(pg_catalog.jsonb_agg(pg_catalog.jsonb_build_object(
           'id', d.id, 'type', d.payload ->> 'type', 'entry_id', coalesce(d.entry_id::text, d.payload -> 'data' ->> 'id'),
           'state', case when d.status = 'pending' and d.attempts > 0 then 'retrying' when d.status = 'pending' then 'waiting' else d.status end,
           'attempts', d.attempts, 'last_error', d.last_error, 'note', d.note,
           'created_at', d.created_at, 'sent_at', d.sent_at, 'next_attempt_at', case when d.status = 'pending' then d.available_at end
         ) order by d.status = 'failed' desc, greatest(d.created_at, d.available_at, d.sent_at) desc, d.id), '[]'::jsonb)
    from (select * from public.waitlist_outbox o where o.kind = 'webhook'
           order by o.status = 'failed' desc, greatest(o.created_at, o.available_at, o.sent_at) desc, o.id
           limit greatest(0, least(max_rows, 1000))) d
$$;

comment on function public.waitlist_webhook_deliveries(integer) is
  'For the owner''s console (service role): the webhook deliveries, failed ones first, then the latest, with their state, attempts and last error.';

revoke all on function public.waitlist_webhook_deliveries(integer) from public, anon, authenticated, service_role;
grant execute on function public.waitlist_webhook_deliveries(integer) to service_role;

-- A founder's resend of a failed delivery: due now, with the same webhook-id (the message's id),
-- and retried again for give_up_after. False when it is not a failed webhook.
create function public.waitlist_webhook_resend(message_id uuid)
returns boolean
language plpgsql
volatile
security definer
set search_path = ''
as $$
begin
  update public.waitlist_outbox o
     set status = 'pending', available_at = pg_catalog.now(), attempts = 0, note = null,
         retry_until = pg_catalog.now() + (select h.give_up_after from private.waitlist_webhook_settings h)
   where o.id = message_id and o.kind = 'webhook' and o.status = 'failed';
  return found;
end
$$;

comment on function public.waitlist_webhook_resend(uuid) is
  'For the owner''s console (service role): puts a failed webhook delivery back in the outbox, due now, with the same webhook-id; false for any other message.';

revoke all on function public.waitlist_webhook_resend(uuid) from public, anon, authenticated, service_role;
grant execute on function public.waitlist_webhook_resend(uuid) to service_role;
