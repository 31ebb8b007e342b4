-- Webhooks: the founders' own tools told of each fact (entry.confirmed, entry.invited,
-- entry.joined, entry.left), the Standard Webhooks way. A part of the outbox (07_outbox.sql, which
-- also holds their settings, private.waitlist_webhook_settings, since the outbox's retries read
-- them): each event is a 'webhook' message written in the same transaction as its fact, claimed,
-- leased, retried and released with the other messages, and delivered by
-- components/waitlist/outbox/webhook.ts (signed, with its webhook-id). Unlike an e-mail, a delivery
-- handed over and not marked goes again with the same id: at least once, never silently dropped;
-- the receiver keeps one per id. The founders' console lists the deliveries and resends a failed
-- one (tools/owner/webhooks.ts).

-- Webhooks (the Standard Webhooks way, components/waitlist/outbox/webhook.ts): one 'webhook'
-- message per event, written with its fact. The payload holds the event's type, time and the facts
-- that name nobody; the name, company and address are read when it is sent, so an erasure before
-- then takes the message with the entry (on delete cascade), and only entry.left, which carries
-- the id alone, goes out.
-- Events of one type for many entries at once (p_entries and p_data side by side), as one insert.
-- PL/pgSQL so that the insert is planned once per session: it runs with every confirmation (a SQL
-- function with set search_path is planned again at each call).
create function private.waitlist_enqueue_webhooks(p_type text, p_entries uuid[], p_data jsonb[], p_available_at timestamptz default now())
returns void
language plpgsql
volatile
security definer
set search_path = ''
as $$
begin
  insert into public.waitlist_outbox (entry_id, kind, payload, retry_until, available_at)
  select case when p_type = 'entry.left' then null else e.entry end, 'webhook',
         pg_catalog.jsonb_build_object('type', p_type, 'occurred_at', pg_catalog.now(), 'data', e.data),
         pg_catalog.now() + h.give_up_after, greatest(p_available_at, pg_catalog.now())
    from rows from (pg_catalog.unnest(p_entries), pg_catalog.unnest(p_data)) e (entry, data)
   cross join private.waitlist_webhook_settings h
   where h.enabled;
end
$$;

revoke all on function private.waitlist_enqueue_webhooks(text, uuid[], jsonb[], timestamptz) from public, anon, authenticated, service_role;

create function private.waitlist_enqueue_webhook(p_type text, p_entry uuid, p_data jsonb, p_available_at timestamptz default now())
returns void
language plpgsql
volatile
security definer
set search_path = ''
as $$
begin
  perform private.waitlist_enqueue_webhooks(p_type, array[p_entry], array[p_data], p_available_at);
end
$$;

revoke all on function private.waitlist_enqueue_webhook(text, uuid, jsonb, timestamptz) from public, anon, authenticated, service_role;

-- The events of an entry's life: confirmed the first time (not when an expired invitation puts
-- someone back in line), joined, and a referral credit that counts (an unheld one, or a held one
-- when a founder grants it: both add to referral_credits, a held one does not). Invited: for a
-- whole statement at once, by private.waitlist_invited.
create function private.waitlist_webhook_events()
returns trigger
language plpgsql
security definer
set search_path = ''
as $$
begin
  if new.status = 'confirmed' and (tg_op = 'INSERT' or old.status = 'pending') then
    perform private.waitlist_enqueue_webhook('entry.confirmed', new.id, pg_catalog.jsonb_build_object(
      'place', private.waitlist_place(new.id),
      'referred_by', new.referred_by,
      'confirmed_at', new.confirmed_at
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
      'place', private.waitlist_place(new.id)
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
-- Before the delete, while the person's messages still exist: one a dispatcher handed over may be
-- on the wire until its lease ends (the dispatcher stops every send by then), so entry.left waits
-- for that, and never reaches a receiver before an event that names them. One claimed but not
-- handed over cannot leave any more (waitlist_outbox_begin_send finds no person).
create function private.waitlist_webhook_left()
returns trigger
language plpgsql
security definer
set search_path = ''
as $$
begin
  -- Nor an imported entry taken out with its import before the commit: its events were held, never sent.
  if old.status <> 'pending' and not private.waitlist_import_pending(old.id) then
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

-- The console's deliveries in their order, read from the index's start: without it the console
-- sorted every webhook message kept (30 days of events, a few per entry: millions at a million
-- entries) for the 50 it shows.
create index waitlist_outbox_webhook_deliveries on public.waitlist_outbox ((status = 'failed') desc, greatest(created_at, available_at, sent_at) desc, id)
  where kind = 'webhook';

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
