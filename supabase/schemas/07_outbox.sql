-- The outbox: every message the waitlist causes, written in the same transaction as its fact.
--
-- Guarantees (webhooks, the one kind delivered at least once, are declared in 07_outbox_webhooks.sql):
--   * Triggers queue a message with the fact that causes it: a confirmation e-mail with every new
--     pending entry and granted link request, Slack with a first confirmation and with joining, the
--     invitation and reminder e-mails, the erasure e-mail with "Delete me", update e-mails with a
--     post. Each message carries the person's language (waitlist_outbox_language); an update e-mail
--     is kept only for the readers of its post's language.
--   * The dispatcher (service role only) claims due messages with a lease, and right before each
--     send asks waitlist_outbox_begin_send, which re-reads the person (gone: not sent) and records
--     that the message was handed to its transport, only while the lease holds. It marks them with
--     the lease it holds: completing or failing a message whose lease ran out or was taken by
--     another run changes nothing. A failure retries with exponential backoff up to max_attempts.
--     A lease that expires while 'sending' puts a message never handed over back in line
--     (uncounted). An e-mail or Slack message handed over is marked 'in_doubt', never sent again:
--     a duplicate is impossible. A webhook handed over goes back in line and is delivered again
--     with the same webhook-id: at least once, and its receiver drops the repeat by that id. What a run had no time for it puts back (waitlist_outbox_release). The lease
--     outlasts the dispatcher's time budget plus its SMTP, Slack and webhook timeouts.
--   * The claim applies the e-mail caps (03_limits.sql) under one advisory lock, and takes due
--     messages by rank (private.waitlist_outbox_rank), then by age: the e-mails people are waiting
--     for, then Slack and invitation webhooks, then the other webhooks, and bulk last (update
--     e-mails, an imported list's e-mails and webhooks), so no urgent message ever waits behind a
--     bulk one. private.waitlist_mail_log records each e-mail by a salted mailbox hash, never the
--     address.
--   * A suppressed mailbox (a hard bounce, a complaint, too many soft bounces: 21_deliverability.sql)
--     gets no e-mail: the claim skips its queued ones and the last check refuses one already
--     claimed; while sending is paused by the bounce or complaint rate, the claim takes no e-mail.
--   * No copy of personal data: names are read at send time, an erased person's messages go with
--     their entry (on delete cascade). The one exception, an erasure e-mail's {email, name,
--     language}, is emptied the moment it leaves pending/sending (a check makes any other state
--     impossible) and given up after erasure_email_lifetime. Stored errors have addresses and the
--     name redacted.
--   * The public key cannot read or change the outbox (no grant, RLS without a policy).
--   * waitlist_purge_pending, called by every dispatcher run: expired pending entries, old tokens
--     and mail log rows, invitation reminders and expiries.
--
-- TypeScript twin: components/waitlist/outbox/store.ts (and dispatch.ts, which sends).

create table public.waitlist_outbox (
  id uuid primary key default gen_random_uuid(),
  entry_id uuid references public.waitlist (id) on delete cascade,
  kind text not null,
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
  retry_until timestamptz,
  handed_at timestamptz,
  counted boolean not null default false,

  constraint waitlist_outbox_lease check ((status = 'sending') = (lease_id is not null and lease_until is not null)),
  constraint waitlist_outbox_handed check (handed_at is null or status = 'sending'),
  constraint waitlist_outbox_entry_kind check (
    (entry_id is null) = (kind = 'erasure_email' or (kind = 'webhook' and payload ->> 'type' = 'entry.left'))
  ),
  constraint waitlist_outbox_kind_check check (kind in (
    'confirmation_email', 'access_email', 'invitation_email', 'reminder_email', 'update_email', 'reward_email',
    'slack_confirmed', 'slack_joined', 'slack_reward', 'erasure_email', 'webhook'
  )),
  constraint waitlist_outbox_webhook check (
    kind <> 'webhook'
    or coalesce(payload ->> 'type' in ('entry.confirmed', 'entry.invited', 'entry.joined', 'referral.credited', 'reward.earned', 'task.completed', 'entry.left')
                and jsonb_typeof(payload -> 'data') = 'object' and retry_until is not null, false)
  ),
  constraint waitlist_outbox_erasure_payload check (
    kind <> 'erasure_email'
    -- coalesce: a missing key makes jsonb_typeof null, and a check passes on null.
    or coalesce(case
         when status in ('pending', 'sending') then
           jsonb_typeof(payload -> 'email') = 'string' and jsonb_typeof(payload -> 'name') = 'string'
           and coalesce(jsonb_typeof(payload -> 'language'), 'string') = 'string'
           and (payload - 'email' - 'name' - 'language') = '{}'::jsonb
         else payload = '{}'::jsonb
       end, false)
  )
);

comment on table public.waitlist_outbox is
  'Messages the waitlist causes, written in the same transaction as their fact; delivered by the dispatcher (service role).';

comment on column public.waitlist_outbox.id is
  'Also the idempotency key of the message (its Message-ID, and the Slack post''s).';

comment on column public.waitlist_outbox.entry_id is
  'The entry the message is about; null only for an erasure e-mail, whose entry is already gone.';

comment on column public.waitlist_outbox.payload is
  'slack_confirmed: the running total. reward_email: {rung}. slack_reward: {rung, kind, status}. erasure_email: the recipient''s address and name until the message is done, then {}. webhook: {type, occurred_at, data} without a name or address (read when it is sent).';

comment on column public.waitlist_outbox.handed_at is
  'When the dispatcher, under the current lease, handed the message to its transport (waitlist_outbox_begin_send); null while it has not, and once the message leaves ''sending''.';

comment on column public.waitlist_outbox.counted is
  'An e-mail already counted against the caps (logged in private.waitlist_mail_log when first claimed); a message put back and claimed again is not counted twice.';

comment on column public.waitlist_outbox.retry_until is
  'webhook: a failed delivery is retried until then (a day after the event, or after a founder''s resend), then marked failed; null for every other kind.';

create index waitlist_outbox_due on public.waitlist_outbox (available_at) where status = 'pending';

-- How urgent a message is, 0 the most: the claim's first key (public.waitlist_outbox_claim).
--   0  the e-mails a person is waiting for: a link, an invitation, a reminder, an erasure, a reward;
--   1  Slack, and the entry.invited webhooks the product's tools let people in with;
--   2  every other webhook (their retries pile up while a receiver is down);
--   3  bulk: update e-mails, an imported list's e-mails and webhooks (payload.import,
--      16_imports.sql), and the rewards a publish grants (payload.ladder, 18_rewards.sql):
--      thousands at once, sharing the hourly cap with the links people wait for.
create function private.waitlist_outbox_rank(kind text, payload jsonb)
returns smallint
language sql
immutable
parallel safe
set search_path = ''
return case
  when kind = 'update_email' or payload ? 'import' or payload ? 'ladder' then 3
  when kind like '%\_email' then 0
  when kind like 'slack\_%' or payload ->> 'type' = 'entry.invited' then 1
  else 2
end;

revoke all on function private.waitlist_outbox_rank(text, jsonb) from public, anon, authenticated, service_role;

-- The claim's order (public.waitlist_outbox_claim): read from its start, never a sort of every due message.
create index waitlist_outbox_claim_order on public.waitlist_outbox (private.waitlist_outbox_rank(kind, payload), available_at, created_at)
  where status = 'pending';

create index waitlist_outbox_leased on public.waitlist_outbox (lease_until) where status = 'sending';

create index waitlist_outbox_entry on public.waitlist_outbox (entry_id);

revoke all on table public.waitlist_outbox from public, anon, authenticated, service_role;
grant select, delete on table public.waitlist_outbox to service_role;

alter table public.waitlist_outbox enable row level security;

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

revoke all on table private.waitlist_mail_log from public, anon, authenticated, service_role;

-- The messages each step causes, in the same transaction: a confirmation e-mail with a new pending
-- entry; Slack hears of a confirmation only the first time (not when an expired invitation puts someone
-- back in line); joining tells Slack. An invitation is written with its e-mail by the statement
-- (private.waitlist_invited).
create function private.waitlist_enqueue_messages()
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

revoke all on function private.waitlist_enqueue_messages() from public, anon, authenticated, service_role;

create trigger waitlist_enqueue_messages
  after insert or update of status on public.waitlist
  for each row execute function private.waitlist_enqueue_messages();

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

-- The person as a claimed message carries them (components/waitlist/outbox/dispatch.ts, ClaimedEntry):
-- read by the claim, and again right before the send (waitlist_outbox_begin_send). The referral
-- code is public by design (it is in every shared link); the confirmation e-mail's share links carry it.
create function private.waitlist_outbox_entry(w public.waitlist)
returns jsonb
language sql
stable
set search_path = ''
as $$
  select pg_catalog.jsonb_build_object(
    'id', w.id, 'name', w.name, 'email', w.email, 'project', w.project,
    'utm_source', w.utm_source, 'utm_medium', w.utm_medium, 'utm_campaign', w.utm_campaign,
    'referrer_host', w.referrer_host, 'landing_path', w.landing_path, 'answers', w.answers,
    'referral_code', w.referral_code
  )
$$;

revoke all on function private.waitlist_outbox_entry(public.waitlist) from public, anon, authenticated, service_role;

-- Claims due messages under a lease, within the e-mail caps (one claim at a time decides, an
-- advisory lock). An expired lease puts a message never handed to its transport back in line, and
-- makes one handed over 'in_doubt' (a webhook: pending again). Messages are claimed by rank
-- (private.waitlist_outbox_rank): due webhooks (a hung receiver's retries) never fill a claim ahead
-- of a sign-up's link or a Slack post, and bulk messages come after every other due message: they
-- share the hourly cap (500) with the links people are waiting for, and a post to a long list or
-- an import would otherwise put the next sign-up's confirmation hours behind it. Each message says
-- how long its lease is (lease_ms): the dispatcher's budget.
create function public.waitlist_outbox_claim(max_messages integer default 20)
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
  -- Sending paused on its own by the bounce or complaint rate (21_deliverability.sql).
  paused boolean := exists (select 1 from private.waitlist_mail_settings m where m.paused_at is not null);
  suppressed_for text;
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
     order by private.waitlist_outbox_rank(o.kind, o.payload), o.available_at, o.created_at
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
    if candidate.kind like '%\_email' then
      -- Paused: every e-mail waits in line, in its order, until a founder resumes.
      continue when paused;
      -- A mailbox that bounced hard or complained gets nothing more, whatever was queued.
      suppressed_for := (private.waitlist_suppression(candidate.email)).reason;
      if suppressed_for is not null then
        update public.waitlist_outbox o
           set status = 'skipped', note = pg_catalog.left(pg_catalog.format('Not sent: the address is suppressed (%s).', pg_catalog.replace(suppressed_for, '_', ' ')), 200)
         where o.id = candidate.id;
        continue;
      end if;
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
         ) order by private.waitlist_outbox_rank(t.kind, t.payload), t.available_at, t.created_at), '[]'::jsonb)
    into claimed
    from grabbed t
    left join public.waitlist w on w.id = t.entry_id;
  return claimed;
end
$$;

revoke all on function public.waitlist_outbox_claim(integer) from public, anon, authenticated, service_role;
grant execute on function public.waitlist_outbox_claim(integer) to service_role;

-- Stores the hash of the token the dispatcher minted for a link e-mail; for invitation e-mails a token for the entry's open invitation
-- (null when it was redeemed or has expired meanwhile); returns the date the e-mail states.
create function public.waitlist_outbox_attach_token(message_id uuid, lease uuid, new_token_hash text)
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
  -- An imported list's confirmation waits its turn behind every other e-mail, days for a long list:
  -- its link lasts token_ttl from now, and its entry was kept until now (waitlist_purge_pending).
  if message.kind = 'confirmation_email' and message.payload ? 'import' and entry.status = 'pending' then
    update public.waitlist w set confirm_by = greatest(w.confirm_by, pg_catalog.now() + settings.token_ttl)
     where w.id = entry.id
    returning * into entry;
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

revoke all on function public.waitlist_outbox_attach_token(uuid, uuid, text) from public, anon, authenticated, service_role;
grant execute on function public.waitlist_outbox_attach_token(uuid, uuid, text) to service_role;

-- The last check before a message leaves, in one statement with the claim's: the lease still
-- holds (and this run's), the message was not handed over yet under it, the person it is about
-- is still there (an erasure deletes the message with them), and an e-mail's mailbox is not
-- suppressed (21_deliverability.sql). Records the hand-over and returns
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
  if message.kind like '%\_email' then
    -- Suppressed since the claim (a bounce or complaint heard meanwhile, 21_deliverability.sql).
    if (private.waitlist_suppression(coalesce(person.email, message.payload ->> 'email'))).mailbox_hash is not null then
      return null;
    end if;
    -- Handed over: counted for the 7-day bounce and complaint rates.
    perform private.waitlist_mail_count_sent();
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
create function public.waitlist_outbox_complete(message_id uuid, lease uuid, outcome text default 'sent', outcome_note text default null)
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

create function public.waitlist_purge_pending()
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
  -- Not one whose confirmation is still to be sent: an imported list's wait behind every other e-mail.
  delete from public.waitlist w
   where w.status = 'pending'
     and w.confirm_by + settings.purge_pending_after < pg_catalog.now()
     and not exists (
       select 1 from public.waitlist_outbox o
        where o.entry_id = w.id and o.kind = 'confirmation_email' and o.status in ('pending', 'sending')
     );
  get diagnostics deleted = row_count;
  -- What an import's command left when it died (16_imports.sql), a chunk a run: an import that
  -- wrote nothing for an hour (or is being taken out) is taken out, a committed one's people
  -- confirmed and its held messages released.
  perform public.waitlist_import_abort(i.id)
     from private.waitlist_imports i
    where i.committed_at is null
      and (i.aborted_at is not null or private.waitlist_import_active_at(i.id) < pg_catalog.now() - interval '1 hour')
    order by i.started_at
    limit 1;
  perform public.waitlist_import_commit(i.id)
     from private.waitlist_imports i
    where i.committed_at is not null and i.released_at is null
    order by i.started_at
    limit 1;
  -- The rewards a publish still owes to whoever already reached them (18_rewards.sql), a batch a run.
  perform private.waitlist_rewards_catch_up(2000);
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

revoke all on function public.waitlist_purge_pending() from public, anon, authenticated, service_role;
grant execute on function public.waitlist_purge_pending() to service_role;

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

revoke all on function private.waitlist_outbox_forget_erasure() from public, anon, authenticated, service_role;

create trigger waitlist_outbox_forget_erasure
  before insert or update on public.waitlist_outbox
  for each row execute function private.waitlist_outbox_forget_erasure();

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

revoke all on function private.waitlist_outbox_redact() from public, anon, authenticated, service_role;

create trigger waitlist_outbox_redact
  before insert or update on public.waitlist_outbox
  for each row execute function private.waitlist_outbox_redact();

-- Stores the hash of a message's one-click unsubscribe token. The scope comes from the message's kind; an update e-mail
-- gets none (so is not sent) unless its person still wants updates, checked under their row lock.
create function public.waitlist_outbox_attach_unsubscribe(message_id uuid, lease uuid, new_token_hash text)
returns boolean
language plpgsql
volatile
security definer
set search_path = ''
as $$
declare
  message public.waitlist_outbox;
begin
  select * into message from public.waitlist_outbox o
   where o.id = message_id and o.lease_id = lease and o.status = 'sending' and o.lease_until > pg_catalog.now() and o.entry_id is not null;
  if not found then
    return false;
  end if;
  if message.kind = 'update_email' then
    perform 1 from public.waitlist w where w.id = message.entry_id and w.updates and w.status in ('confirmed', 'invited', 'joined') for update;
    if not found then
      return false;
    end if;
  end if;
  insert into private.waitlist_unsubscribe_tokens (token_hash, entry_id, scope)
  values (new_token_hash, message.entry_id, case when message.kind = 'update_email' then 'updates' else 'waitlist' end);
  return true;
end
$$;

revoke all on function public.waitlist_outbox_attach_unsubscribe(uuid, uuid, text) from public, anon, authenticated, service_role;
grant execute on function public.waitlist_outbox_attach_unsubscribe(uuid, uuid, text) to service_role;

create function private.waitlist_outbox_language()
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

revoke all on function private.waitlist_outbox_language() from public, anon, authenticated, service_role;

create trigger waitlist_outbox_language
  before insert on public.waitlist_outbox
  for each row execute function private.waitlist_outbox_language();
