-- Every visitor's call as fast at a million entries as at ten thousand, and an invitation of
-- 10,000 within the API's 8 s (issue #51). The line's helpers and the webhook insert, run with
-- every confirmation, become PL/pgSQL (planned once per session, where a SQL function with
-- set search_path is planned at every call); an invitation's rows, e-mails and webhooks are
-- written per statement, not per person; a confirmation skips its pending link by its entry, and
-- the outbox claim reads its order from an index instead of sorting and joining every due
-- message. Meanings are unchanged: docs/waitlist.md.
--
-- Never edit this file once applied; change it with a later migration.

-- The trim trigger now normalises the e-mail too (still for every writer, on insert and on an update
-- that writes these columns: a change of status or credits, thousands at once when inviting, leaves
-- them as they were cleaned).
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

drop trigger waitlist_clean on public.waitlist;

create trigger waitlist_clean
  before insert or update of name, email, project on public.waitlist
  for each row execute function public.waitlist_clean();

-- The key of an entry with this arrival, credits and status; null out of the line. Read inside the
-- statement that writes it, so a change of places_per_referral (which locks private.waitlist_line
-- first) is never missed by a confirmation running beside it. PL/pgSQL, like the line's other
-- helpers that run with every confirmation and every invited row: its plan is kept for the
-- session, where a SQL function with set search_path is planned again at each call.
create or replace function private.waitlist_line_key(arrival bigint, referral_credits integer, status text)
returns bigint
language plpgsql
stable
set search_path = ''
as $$
begin
  if status is distinct from 'confirmed' then
    return null;
  end if;
  return arrival - referral_credits::bigint * (select s.places_per_referral from private.waitlist_referral_settings s);
end
$$;

-- The line row of an entry that is (or was) confirmed follows its status and credits: an arrival
-- at the first confirmation, the key on every change. Named to fire before waitlist_enqueue_messages
-- and waitlist_webhook_events (same-event triggers fire in name order), which read the counts.
create or replace function private.waitlist_arrival()
returns trigger
language plpgsql
security definer
set search_path = ''
as $$
declare
  line private.waitlist_line;
begin
  if new.status = 'pending' then
    return null;
  end if;
  select * into line from private.waitlist_line l where l.entry_id = new.id;
  if found then
    -- Only a change is written: an unchanged row would still fire the counts' statement trigger,
    -- and waitlist_invite_next takes its people out of the line in one statement beforehand.
    if line.line_key is distinct from private.waitlist_line_key(line.arrival, new.referral_credits, new.status) then
      update private.waitlist_line l set line_key = private.waitlist_line_key(l.arrival, new.referral_credits, new.status)
       where l.entry_id = new.id;
    end if;
  else
    insert into private.waitlist_line (entry_id, arrival, line_key)
    select new.id, a.arrival, private.waitlist_line_key(a.arrival, new.referral_credits, new.status)
      from (select pg_catalog.nextval('private.waitlist_line_arrival') as arrival) a;
  end if;
  return null;
end
$$;

-- What a statement changed in private.waitlist_line, as rows of counts: the keys it added and
-- removed per bucket (netted), and how many rows it added (negative: removed).
create or replace function private.waitlist_line_count(added bigint[], removed bigint[], entries bigint)
returns void
language plpgsql
volatile
security definer
set search_path = ''
as $$
begin
  insert into private.waitlist_line_counts (counter, bucket, entries)
  select 'line', d.bucket, sum(d.entries)
    from (select private.waitlist_line_bucket(k) as bucket, 1 as entries from pg_catalog.unnest(added) k where k is not null
          union all
          select private.waitlist_line_bucket(k), -1 from pg_catalog.unnest(removed) k where k is not null) d
   group by d.bucket
  having sum(d.entries) <> 0
  union all
  select 'total', 0, waitlist_line_count.entries where waitlist_line_count.entries <> 0;
end
$$;

-- A confirmed entry's place in line (null for anyone else): the entries in the buckets before its
-- own, plus those before it inside its bucket (an index range), plus one.
create or replace function private.waitlist_place(entry uuid)
returns bigint
language plpgsql
stable
security definer
set search_path = ''
as $$
declare
  line private.waitlist_line;
  own_bucket bigint;
begin
  select * into line from private.waitlist_line l where l.entry_id = entry and l.line_key is not null;
  if not found then
    return null;
  end if;
  own_bucket := private.waitlist_line_bucket(line.line_key);
  return (select coalesce(sum(c.entries), 0) from private.waitlist_line_counts c where c.counter = 'line' and c.bucket < own_bucket)
         + (select count(*) from private.waitlist_line x
             where x.line_key >= own_bucket * private.waitlist_line_bucket_width()
               and (x.line_key, x.arrival) < (line.line_key, line.arrival))
         + 1;
end
$$;

-- 'line': how many are in line; 'total': how many have confirmed and are still on the list;
-- 'invited' and 'joined': how many on the list were ever invited, and how many invitations were
-- redeemed. As the calling transaction sees them: two confirmations committing at the same moment
-- may both count the same total.
create or replace function private.waitlist_line_total(counter text)
returns bigint
language plpgsql
stable
security definer
set search_path = ''
as $$
begin
  return (select coalesce(sum(c.entries), 0)::bigint from private.waitlist_line_counts c where c.counter = waitlist_line_total.counter);
end
$$;

-- The head of the line, for the owner: place, name, e-mail and status of the next `n` to invite,
-- read from the line's index.
create or replace function public.waitlist_line_head(n integer default 20)
returns jsonb
language plpgsql
stable
security definer
set search_path = ''
as $$
declare
  head jsonb;
begin
  -- The limit is written into the statement so that it is planned with it: the index read in
  -- order. A limit given as a parameter is planned as a tenth of the line, which sorts it all.
  -- Each person is read by their id (a subquery per row; every line row has its entry, on delete
  -- cascade): joined, 10,000 of them were planned as a hash of the whole list.
  execute pg_catalog.format($head$
    select coalesce(pg_catalog.jsonb_agg(
             (select pg_catalog.jsonb_build_object(
                       'place', h.place, 'id', w.id, 'name', w.name, 'email', w.email, 'project', w.project,
                       'referral_credits', w.referral_credits, 'confirmed_at', w.confirmed_at)
                from public.waitlist w where w.id = h.entry_id)
             order by h.place), '[]'::jsonb)
      from (select l.entry_id, pg_catalog.row_number() over (order by l.line_key, l.arrival) as place
              from (select x.entry_id, x.line_key, x.arrival from private.waitlist_line x
                     where x.line_key is not null order by x.line_key, x.arrival limit %s) l) h$head$, greatest(0, least(n, 10000)))
    into head;
  return head;
end
$$;

-- The claim's order (public.waitlist_outbox_claim): read from its start, never a sort of every due message.
create index waitlist_outbox_claim_order on public.waitlist_outbox ((kind = 'update_email'), (kind not like '%\_email'), available_at, created_at)
  where status = 'pending';

-- The messages each step causes, in the same transaction: a confirmation e-mail with a new pending
-- entry; Slack hears of a confirmation only the first time (not when an expired invitation puts someone
-- back in line); joining tells Slack. An invitation is written with its e-mail by the statement
-- (private.waitlist_invited).
create or replace function private.waitlist_enqueue_messages()
returns trigger
language plpgsql
security definer
set search_path = ''
as $$
begin
  if tg_op = 'INSERT' and new.status = 'pending' then
    insert into public.waitlist_outbox (entry_id, kind) values (new.id, 'confirmation_email');
  elsif new.status = 'confirmed' and (tg_op = 'INSERT' or old.status = 'pending') then
    -- The total as of this confirmation, from the line's counts (05_line.sql): no lock, so two
    -- confirmations committing at the same moment may both carry the same total.
    insert into public.waitlist_outbox (entry_id, kind, payload)
    values (new.id, 'slack_confirmed', pg_catalog.jsonb_build_object('total', private.waitlist_line_total('total')));
  elsif tg_op = 'UPDATE' and new.status = 'joined' and old.status = 'invited' then
    -- The counts as of this join, from the counts' rows (waitlist_invitation_tally, 06_invitations.sql):
    -- no lock, so two people joining at the same moment may both carry the same numbers.
    insert into public.waitlist_outbox (entry_id, kind, payload)
    values (new.id, 'slack_joined', pg_catalog.jsonb_build_object(
      'invited_at', new.invited_at,
      'joined_at', new.joined_at,
      'joined', private.waitlist_line_total('joined'),
      'invited', private.waitlist_line_total('invited')
    ));
  end if;
  return null;
end
$$;

-- Everyone a statement invited, at once: their invitations, invitation e-mails and entry.invited
-- webhooks in three statements, however many (waitlist_invite_next invites up to 10,000 within the
-- API's 8 s; written row by row, each of them cost a few statements of its own).
create function private.waitlist_invited()
returns trigger
language plpgsql
security definer
set search_path = ''
as $$
declare
  settings private.waitlist_invitation_settings;
  entries uuid[];
  invitations uuid[];
  events jsonb[];
begin
  if not exists (select 1 from new_rows n join old_rows o on o.id = n.id where n.status = 'invited' and o.status = 'confirmed') then
    return null;
  end if;
  select * into strict settings from private.waitlist_invitation_settings;
  with invited as (
    insert into private.waitlist_invitations (entry_id, invited_at, expires_at)
    select n.id, n.invited_at, n.invited_at + settings.invitation_ttl
      from new_rows n join old_rows o on o.id = n.id
     where n.status = 'invited' and o.status = 'confirmed'
    returning id, entry_id, invited_at, expires_at
  )
  select pg_catalog.array_agg(i.entry_id order by i.entry_id), pg_catalog.array_agg(i.id order by i.entry_id),
         pg_catalog.array_agg(pg_catalog.jsonb_build_object('invited_at', i.invited_at, 'expires_at', i.expires_at) order by i.entry_id)
    into entries, invitations, events
    from invited i;
  insert into public.waitlist_outbox (entry_id, kind, payload)
  select m.entry, 'invitation_email', pg_catalog.jsonb_build_object('invitation_id', m.invitation)
    from rows from (pg_catalog.unnest(entries), pg_catalog.unnest(invitations)) m (entry, invitation);
  perform private.waitlist_enqueue_webhooks('entry.invited', entries, events);
  return null;
end
$$;

revoke all on function private.waitlist_invited() from public, anon, authenticated, service_role;

create trigger waitlist_invited
  after update on public.waitlist
  referencing old table as old_rows new table as new_rows
  for each statement execute function private.waitlist_invited();

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

  perform pg_catalog.pg_advisory_xact_lock(pg_catalog.hashtext('waitlist mail caps'));
  -- Counted up to the cap only: a busy hour's log is not read to its end at every claim.
  select caps.emails_per_hour - count(*) into budget
    from (select 1 from private.waitlist_mail_log l where l.created_at > pg_catalog.now() - interval '1 hour'
           limit greatest(caps.emails_per_hour, 0)) l;

  -- In the order of waitlist_outbox_claim_order: the index is read from its start, and the loop
  -- stops as soon as the claim is full.
  for candidate in
    select o.id, o.kind, o.counted, coalesce(w.email, o.payload ->> 'email') as email, w.status as entry_status
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
    -- A link its person no longer needs: found here as its turn comes, by its entry, not by
    -- joining every due message to the list at each claim.
    if candidate.kind = 'confirmation_email' and candidate.entry_status <> 'pending' then
      update public.waitlist_outbox o
         set status = 'skipped', note = 'The entry was confirmed before this e-mail was sent.'
       where o.id = candidate.id;
      continue;
    end if;
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

create or replace function private.waitlist_outbox_language()
returns trigger
language plpgsql
security definer
set search_path = ''
as $$
declare
  person_language text;
begin
  -- One indexed read per message (this runs for every row of an invitation of thousands).
  if new.entry_id is not null then
    select w.language into person_language from public.waitlist w where w.id = new.entry_id;
  else
    -- An erasure message has no entry (it is deleted right after, in the same transaction): its
    -- payload names the address the person had, by its unique key.
    select w.language into person_language from public.waitlist w where w.email_key = pg_catalog.lower(new.payload ->> 'email');
  end if;
  person_language := coalesce(person_language, 'en');
  -- A post's path names its language (/de/blog/…; English's has no prefix, lib/content/paths.ts):
  -- waitlist_broadcast_post queues it for everyone who wants updates, and only its language's
  -- readers keep their message. Its count of recipients counts only those.
  if new.kind = 'update_email'
     and person_language <> coalesce(pg_catalog.substring(new.payload ->> 'path', '^/([a-z]{2}(?:-[a-z]{2})?)/'), 'en') then
    return null;
  end if;
  new.payload := coalesce(new.payload, '{}'::jsonb) || pg_catalog.jsonb_build_object('language', person_language);
  return new;
end
$$;

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

create or replace function private.waitlist_enqueue_webhook(p_type text, p_entry uuid, p_data jsonb, p_available_at timestamptz default now())
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

-- The events of an entry's life: confirmed the first time (not when an expired invitation puts
-- someone back in line), joined, and a referral credit that counts (an unheld one, or a held one
-- when a founder grants it: both add to referral_credits, a held one does not). Invited: for a
-- whole statement at once, by private.waitlist_invited.
create or replace function private.waitlist_webhook_events()
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

-- Invites the next `n` confirmed people in place order, or only says who they would be.
create or replace function public.waitlist_invite_next(n integer, dry_run boolean default false)
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
  chosen := public.waitlist_line_head(n);
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

-- An erasure's cascades find these rows by an index (they grow with the invitations and referrals).
create index waitlist_invitations_entry on private.waitlist_invitations (entry_id);

create index waitlist_referral_ledger_referred on private.waitlist_referral_ledger (referred_id);

create index waitlist_referral_holds_referred on private.waitlist_referral_holds (referred_id);

-- Slack's join message no longer counts the invitations under a lock: rows of counts, as the line's.
alter table private.waitlist_line_counts drop constraint waitlist_line_counts_counter_check;

alter table private.waitlist_line_counts add constraint waitlist_line_counts_counter_check check (counter in ('line', 'total', 'invited', 'joined'));

comment on table private.waitlist_line_counts is
  'Counts as sums of rows, only ever inserted by a change (so concurrent confirmations never wait for each other) and merged by private.waitlist_line_compact: ''line'' the entries in line per bucket of keys, ''total'' every row of private.waitlist_line (confirmed, invited or joined); ''invited'' the entries ever invited and ''joined'' the invitations redeemed (private.waitlist_invitation_tally).';

-- Every key again and the counts from scratch: after a change of places_per_referral (the
-- waitlist_line_rekey trigger: a founder's rare update, one pass over the line), and after a bulk
-- load that bypassed the triggers (rows without a line row get arrivals in order of confirmation).
-- Confirmations wait for it; readers do not.
create or replace function private.waitlist_line_rebuild()
returns void
language plpgsql
volatile
security definer
set search_path = ''
as $$
begin
  lock table private.waitlist_line in exclusive mode;
  insert into private.waitlist_line (entry_id, arrival, line_key)
  select n.id, n.arrival, private.waitlist_line_key(n.arrival, n.referral_credits, n.status)
    from (select w.id, w.referral_credits, w.status,
                 coalesce((select max(l.arrival) from private.waitlist_line l), 0)
                   + pg_catalog.row_number() over (order by coalesce(w.confirmed_at, w.created_at), w.created_at, w.id) as arrival
            from public.waitlist w
           where w.status <> 'pending' and not exists (select 1 from private.waitlist_line l where l.entry_id = w.id)) n;
  perform pg_catalog.setval('private.waitlist_line_arrival', greatest(m.arrival, q.last_value))
     from (select max(l.arrival) as arrival from private.waitlist_line l) m, private.waitlist_line_arrival q
    where m.arrival is not null;
  update private.waitlist_line l set line_key = private.waitlist_line_key(l.arrival, w.referral_credits, w.status)
    from public.waitlist w
   where w.id = l.entry_id and l.line_key is distinct from private.waitlist_line_key(l.arrival, w.referral_credits, w.status);
  -- The counts from scratch (nothing else writes them while the line is locked): also right after
  -- a change of the bucket width. The invitations' counts do not follow the line.
  delete from private.waitlist_line_counts c where c.counter in ('line', 'total');
  insert into private.waitlist_line_counts (counter, bucket, entries)
  select 'line', private.waitlist_line_bucket(l.line_key), count(*) from private.waitlist_line l where l.line_key is not null group by 2
  union all
  select 'total', 0, count(*) from private.waitlist_line l having count(*) > 0;
end
$$;

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

-- The counts of the invitations made before.
insert into private.waitlist_line_counts (counter, bucket, entries)
select 'invited', 0, count(distinct i.entry_id) from private.waitlist_invitations i having count(*) > 0
union all
select 'joined', 0, count(*) from private.waitlist_invitations i where i.redeemed_at is not null having count(*) > 0;
