-- Issue #71: provider events, suppression, the 7-day rates and the pause (supabase/schemas/21_deliverability.sql);
-- the outbox's claim and last check skip suppressed mailboxes (07_outbox.sql), own data says why (08_own_data.sql).

-- Deliverability: what the mail providers tell us back (bounces, complaints), the addresses that
-- must not be written to again, and the rates that pause sending on their own.
--
-- Guarantees:
--   * public.waitlist_mail_event (service role: app/api/mail-events/[provider]/route.ts, after the
--     provider's signature or password was checked) records each provider event once, by the
--     provider's own event id (private.waitlist_mail_events): the same event delivered again, or
--     replayed by someone who captured it, changes nothing and answers 'replayed'.
--   * A hard bounce or a complaint suppresses the mailbox at once; soft bounces are counted and
--     suppress it at soft_bounce_limit. Suppression is kept by a salted hash of the mailbox
--     (private.waitlist_mailbox_hash('suppress', …), which reads waitlist_rules.mailbox_key), so it
--     holds for every spelling of the address and for a new sign-up after an erasure or removal,
--     and stores no address.
--   * A suppressed mailbox gets no e-mail of any kind: its queued e-mails are skipped at once, the
--     claim skips any queued later (public.waitlist_outbox_claim, 07_outbox.sql), and the last check
--     before a send refuses one already claimed (public.waitlist_outbox_begin_send).
--   * A complaint also ends updates (updates = false). A pending entry whose mailbox is suppressed
--     can never receive its link: it is deleted as unreachable, never confirmed, so its referrer is
--     never credited (credits are given at the first confirmation, 05_line.sql).
--   * Out of order: a delivery event resets the soft-bounce count only when it happened after the
--     last soft bounce counted; nothing but a founder lifts a suppression, so a late 'delivered'
--     after a hard bounce changes nothing.
--   * Rates: e-mails handed to the transport (counted by waitlist_outbox_begin_send), hard
--     bounces and complaints per day (private.waitlist_mail_daily). Over the last 7 days, above
--     warn_* the console warns; above pause_* (with at least pause_min_sent e-mails in the window,
--     so one bounce of the first e-mails does not stop a launch) every e-mail waits in the outbox
--     until a founder resumes (public.waitlist_mail_resume: the console or npm run waitlist:mail).
--
-- TypeScript twins: components/waitlist/mail-events/ (the providers' webhooks), tools/owner/mail.ts
-- (the founders' reads and the resume).

create table private.waitlist_mail_settings (
  singleton boolean primary key default true check (singleton),
  soft_bounce_limit integer not null default 3 check (soft_bounce_limit >= 1),
  warn_bounce_rate numeric not null default 0.02 check (warn_bounce_rate > 0),
  warn_complaint_rate numeric not null default 0.001 check (warn_complaint_rate > 0),
  pause_bounce_rate numeric not null default 0.05 check (pause_bounce_rate > 0),
  pause_complaint_rate numeric not null default 0.003 check (pause_complaint_rate > 0),
  pause_min_sent integer not null default 100 check (pause_min_sent >= 0),
  keep_events interval not null default interval '30 days' check (keep_events >= interval '1 day'),
  paused_at timestamptz,
  paused_reason text check (char_length(paused_reason) <= 200),
  resumed_at timestamptz
);

comment on table private.waitlist_mail_settings is
  'Deliverability (one row): soft bounces before suppression, the 7-day warning and pause rates, and the pause itself (paused_at, set on its own, cleared by public.waitlist_mail_resume).';

insert into private.waitlist_mail_settings (singleton) values (true);

revoke all on table private.waitlist_mail_settings from public, anon, authenticated, service_role;

create table private.waitlist_mail_events (
  provider text not null check (provider in ('resend', 'postmark', 'ses')),
  event_id text not null check (char_length(event_id) between 1 and 200),
  kind text not null,
  occurred_at timestamptz not null,
  received_at timestamptz not null default now(),
  primary key (provider, event_id)
);

comment on table private.waitlist_mail_events is
  'Every provider event heard, by the provider''s id: a second delivery or a replay is refused. No address. Kept keep_events, far longer than any signature''s accepted age.';

create index waitlist_mail_events_received on private.waitlist_mail_events (received_at);

revoke all on table private.waitlist_mail_events from public, anon, authenticated, service_role;

create table private.waitlist_suppressions (
  mailbox_hash text primary key check (mailbox_hash ~ '^[0-9a-f]{64}$'),
  reason text not null check (reason in ('hard_bounce', 'complaint', 'soft_bounces')),
  provider text not null,
  suppressed_at timestamptz not null default now()
);

comment on table private.waitlist_suppressions is
  'Mailboxes that get no more e-mail, by salted hash (every spelling of one mailbox is one row): why, told by which provider, and when.';

revoke all on table private.waitlist_suppressions from public, anon, authenticated, service_role;

create table private.waitlist_soft_bounces (
  mailbox_hash text primary key check (mailbox_hash ~ '^[0-9a-f]{64}$'),
  bounces integer not null check (bounces >= 0),
  last_at timestamptz not null
);

comment on table private.waitlist_soft_bounces is
  'Soft bounces in a row per mailbox (reset by a later delivery); at soft_bounce_limit the mailbox is suppressed.';

revoke all on table private.waitlist_soft_bounces from public, anon, authenticated, service_role;

create table private.waitlist_mail_daily (
  day date primary key,
  sent integer not null default 0 check (sent >= 0),
  bounced integer not null default 0 check (bounced >= 0),
  complained integer not null default 0 check (complained >= 0)
);

comment on table private.waitlist_mail_daily is
  'Per day (UTC): e-mails handed to the transport, hard bounces (and soft-bounce suppressions), complaints; the 7-day rates read it.';

revoke all on table private.waitlist_mail_daily from public, anon, authenticated, service_role;

-- The suppression of a mailbox, or null: read by the claim, the last check and the own data.
create function private.waitlist_suppression(address text)
returns private.waitlist_suppressions
language plpgsql
stable
security definer
set search_path = ''
as $$
declare
  found_row private.waitlist_suppressions;
begin
  if address is null then
    return null;
  end if;
  select * into found_row from private.waitlist_suppressions s where s.mailbox_hash = private.waitlist_mailbox_hash('suppress', address);
  return found_row;
end
$$;

revoke all on function private.waitlist_suppression(text) from public, anon, authenticated, service_role;

-- Counts one e-mail handed to its transport today (called by waitlist_outbox_begin_send).
create function private.waitlist_mail_count_sent()
returns void
language plpgsql
volatile
security definer
set search_path = ''
as $$
begin
  insert into private.waitlist_mail_daily as d (day, sent) values ((pg_catalog.now() at time zone 'UTC')::date, 1)
  on conflict (day) do update set sent = d.sent + 1;
end
$$;

revoke all on function private.waitlist_mail_count_sent() from public, anon, authenticated, service_role;

-- The last 7 days' figures, the thresholds and the pause, as the console and the command show them.
create function public.waitlist_mail_health()
returns jsonb
language plpgsql
stable
security definer
set search_path = ''
as $$
declare
  settings private.waitlist_mail_settings;
  sent bigint;
  bounced bigint;
  complained bigint;
begin
  select * into strict settings from private.waitlist_mail_settings;
  select coalesce(sum(d.sent), 0), coalesce(sum(d.bounced), 0), coalesce(sum(d.complained), 0) into sent, bounced, complained
    from private.waitlist_mail_daily d
   where d.day > (pg_catalog.now() at time zone 'UTC')::date - 7;
  return pg_catalog.jsonb_build_object(
    'sent', sent, 'bounced', bounced, 'complained', complained,
    'bounce_rate', case when sent > 0 then bounced::numeric / sent end,
    'complaint_rate', case when sent > 0 then complained::numeric / sent end,
    'warn_bounce_rate', settings.warn_bounce_rate, 'warn_complaint_rate', settings.warn_complaint_rate,
    'pause_bounce_rate', settings.pause_bounce_rate, 'pause_complaint_rate', settings.pause_complaint_rate,
    'pause_min_sent', settings.pause_min_sent,
    'paused_at', settings.paused_at, 'paused_reason', settings.paused_reason, 'resumed_at', settings.resumed_at,
    'suppressed', (select count(*) from private.waitlist_suppressions)
  );
end
$$;

comment on function public.waitlist_mail_health() is
  'Service role (the founders'' console and npm run waitlist:mail): the last 7 days'' e-mails sent, hard bounces and complaints, their rates, the thresholds, and whether sending is paused.';

revoke all on function public.waitlist_mail_health() from public, anon, authenticated, service_role;
grant execute on function public.waitlist_mail_health() to service_role;

-- Pauses sending when the 7-day rates are above the pause thresholds (after a bounce or complaint).
create function private.waitlist_mail_check_pause()
returns void
language plpgsql
volatile
security definer
set search_path = ''
as $$
declare
  health jsonb := public.waitlist_mail_health();
  settings private.waitlist_mail_settings;
  why text;
begin
  select * into strict settings from private.waitlist_mail_settings for update;
  if settings.paused_at is not null or (health ->> 'sent')::bigint < settings.pause_min_sent or (health ->> 'sent')::bigint = 0 then
    return;
  end if;
  if (health ->> 'complaint_rate')::numeric > settings.pause_complaint_rate then
    why := pg_catalog.format('Complaints %s %% of e-mails over 7 days (above %s %%).',
      pg_catalog.round((health ->> 'complaint_rate')::numeric * 100, 2), settings.pause_complaint_rate * 100);
  elsif (health ->> 'bounce_rate')::numeric > settings.pause_bounce_rate then
    why := pg_catalog.format('Bounces %s %% of e-mails over 7 days (above %s %%).',
      pg_catalog.round((health ->> 'bounce_rate')::numeric * 100, 2), settings.pause_bounce_rate * 100);
  end if;
  if why is not null then
    update private.waitlist_mail_settings set paused_at = pg_catalog.now(), paused_reason = pg_catalog.left(why, 200);
  end if;
end
$$;

revoke all on function private.waitlist_mail_check_pause() from public, anon, authenticated, service_role;

-- One provider event, already authenticated by the route. kind: 'delivered', 'soft_bounce',
-- 'hard_bounce', 'complaint' (anything else is only recorded). Answers what it did: 'replayed',
-- 'recorded', 'counted' (a soft bounce below the limit), 'reset', or 'suppressed'.
create function public.waitlist_mail_event(provider text, event_id text, kind text, address text default null, occurred_at timestamptz default null)
returns text
language plpgsql
volatile
security definer
set search_path = ''
as $$
declare
  settings private.waitlist_mail_settings;
  mailbox text;
  soft integer;
  reason text;
begin
  select * into strict settings from private.waitlist_mail_settings;
  insert into private.waitlist_mail_events (provider, event_id, kind, occurred_at)
  values (provider, event_id, kind, coalesce(occurred_at, pg_catalog.now()))
  on conflict do nothing;
  if not found then
    return 'replayed';
  end if;
  delete from private.waitlist_mail_events e where e.received_at < pg_catalog.now() - settings.keep_events;
  if address is null or kind not in ('delivered', 'soft_bounce', 'hard_bounce', 'complaint') then
    return 'recorded';
  end if;
  mailbox := private.waitlist_mailbox_hash('suppress', address);
  if kind = 'delivered' then
    -- Out of order: only a delivery after the last soft bounce counted clears the count.
    delete from private.waitlist_soft_bounces b where b.mailbox_hash = mailbox and b.last_at < coalesce(occurred_at, pg_catalog.now());
    return case when found then 'reset' else 'recorded' end;
  end if;
  if kind = 'soft_bounce' then
    insert into private.waitlist_soft_bounces as b (mailbox_hash, bounces, last_at) values (mailbox, 1, coalesce(occurred_at, pg_catalog.now()))
    on conflict (mailbox_hash) do update set bounces = b.bounces + 1, last_at = greatest(b.last_at, excluded.last_at)
    returning b.bounces into soft;
    if soft < settings.soft_bounce_limit then
      return 'counted';
    end if;
    reason := 'soft_bounces';
  else
    reason := kind;
  end if;

  insert into private.waitlist_mail_daily as d (day, bounced, complained)
  values ((pg_catalog.now() at time zone 'UTC')::date, (reason <> 'complaint')::integer, (reason = 'complaint')::integer)
  on conflict (day) do update set bounced = d.bounced + excluded.bounced, complained = d.complained + excluded.complained;

  -- A complaint outranks a bounce: it is the reason the person's own data shows.
  insert into private.waitlist_suppressions as s (mailbox_hash, reason, provider) values (mailbox, reason, provider)
  on conflict (mailbox_hash) do update set reason = excluded.reason, provider = excluded.provider
   where excluded.reason = 'complaint' and s.reason <> 'complaint';

  -- Every entry of this mailbox, whatever its spelling (the waitlist_mailbox index, 16_imports.sql).
  if reason = 'complaint' then
    update public.waitlist w set updates = false, updates_stopped_at = pg_catalog.now()
     where waitlist_rules.mailbox_key(w.email) = waitlist_rules.mailbox_key(address) and w.updates;
  end if;
  update public.waitlist_outbox o
     set status = 'skipped', note = pg_catalog.left(pg_catalog.format('Not sent: the address is suppressed (%s).', pg_catalog.replace(reason, '_', ' ')), 200)
   where o.status = 'pending' and o.kind like '%\_email'
     and o.entry_id in (select w.id from public.waitlist w where waitlist_rules.mailbox_key(w.email) = waitlist_rules.mailbox_key(address));
  -- Unreachable: its link can never arrive, so it never confirms and credits nobody.
  delete from public.waitlist w where waitlist_rules.mailbox_key(w.email) = waitlist_rules.mailbox_key(address) and w.status = 'pending';
  perform private.waitlist_mail_check_pause();
  return 'suppressed';
end
$$;

comment on function public.waitlist_mail_event(text, text, text, text, timestamptz) is
  'Service role (the mail providers'' webhook route, after authenticating the provider): records one event once by its id and acts on it (soft bounce counted, hard bounce or complaint suppresses the mailbox, skips its queued e-mails, removes a pending entry; a complaint ends updates; the 7-day rates may pause sending). Answers replayed, recorded, reset, counted or suppressed.';

revoke all on function public.waitlist_mail_event(text, text, text, text, timestamptz) from public, anon, authenticated, service_role;
grant execute on function public.waitlist_mail_event(text, text, text, text, timestamptz) to service_role;

-- A founder resumes sending (the console, or npm run waitlist:mail -- resume). True when it was paused.
create function public.waitlist_mail_resume()
returns boolean
language plpgsql
volatile
security definer
set search_path = ''
as $$
begin
  update private.waitlist_mail_settings set paused_at = null, paused_reason = null, resumed_at = pg_catalog.now() where paused_at is not null;
  return found;
end
$$;

comment on function public.waitlist_mail_resume() is
  'Service role (the founders'' console, npm run waitlist:mail -- resume): ends an automatic pause of sending; true when sending was paused. A later bounce or complaint with the rates still above the thresholds pauses it again.';

revoke all on function public.waitlist_mail_resume() from public, anon, authenticated, service_role;
grant execute on function public.waitlist_mail_resume() to service_role;

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


create or replace function public.waitlist_outbox_begin_send(message_id uuid, lease uuid)
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
    -- Brought from another tool (16_imports.sql): when, and the consent the founders recorded.
    'imported', (
      select pg_catalog.jsonb_build_object('imported_at', i.started_at, 'line', e.line, 'consent', i.consent)
        from private.waitlist_imported e join private.waitlist_imports i on i.id = e.import_id
       where e.entry_id = entry.id
    ),
    'rewards', (
      select coalesce(pg_catalog.jsonb_agg(pg_catalog.jsonb_build_object(
               'rung', r.rung, 'kind', r.kind, 'places', r.places, 'status', r.status, 'earned_at', r.earned_at, 'decided_at', r.decided_at
             ) order by r.earned_at, r.rung), '[]'::jsonb)
        from private.waitlist_rewards_earned r
       where r.entry_id = entry.id
    ),
    -- The research tasks they answered, with the answers as they gave them (19_tasks.sql).
    'tasks', private.waitlist_own_task_answers(entry.id),
    'messages', (
      select coalesce(pg_catalog.jsonb_agg(pg_catalog.jsonb_build_object(
               'kind', o.kind, 'status', o.status, 'attempts', o.attempts, 'created_at', o.created_at, 'sent_at', o.sent_at
             ) order by o.created_at), '[]'::jsonb)
        from public.waitlist_outbox o
       where o.entry_id = entry.id
    ),
    -- Whether their address gets no more e-mail, why and since when (21_deliverability.sql).
    'suppressed', (
      select pg_catalog.jsonb_build_object('reason', s.reason, 'provider', s.provider, 'suppressed_at', s.suppressed_at)
        from private.waitlist_suppression(entry.email) s
       where s.mailbox_hash is not null
    ),
    'exported_at', pg_catalog.now()
  );
end
$$;

comment on function public.waitlist_export_me(text) is
  'Everything stored about the token holder (their entry, its messages, invitations, rewards earned, research tasks answered, and when and why their address was suppressed), as JSON; null for any other token. Rate limited per network.';

create or replace function public.waitlist_export_page(
  after_created_at timestamptz default null,
  after_id uuid default null,
  page_size integer default 5000,
  upto_created_at timestamptz default null,
  upto_id uuid default null
)
returns json
language plpgsql
stable
security definer
set search_path = ''
as $$
declare
  any_tasks boolean := exists (select 1 from private.waitlist_task_answers);
  -- The flag names a suppressed address (21_deliverability.sql); with none suppressed, no row is hashed.
  any_suppressed boolean := exists (select 1 from private.waitlist_suppressions);
begin
  perform private.waitlist_export_arguments(after_created_at, after_id, page_size);
  if (upto_created_at is null) <> (upto_id is null) then
    raise exception 'upto_created_at and upto_id go together' using errcode = '22023';
  end if;
  return coalesce((
    with page as (
      select w.*
        from public.waitlist w
       where (w.created_at, w.id) > (coalesce(after_created_at, '-infinity'), coalesce(after_id, '00000000-0000-0000-0000-000000000000'))
         and (w.created_at, w.id) <= (coalesce(upto_created_at, 'infinity'), coalesce(upto_id, 'ffffffff-ffff-ffff-ffff-ffffffffffff'))
       order by w.created_at, w.id
       limit page_size
    ),
    -- The research tasks the page's people answered (19_tasks.sql), read for the whole page at once
    -- (a function call per entry made the export of a million twice as slow), and only once anyone
    -- answered one.
    answered as (
      select a.entry_id, pg_catalog.jsonb_object_agg(a.task, private.waitlist_task_answer_json(a)) as tasks
        from private.waitlist_task_answers a
       where any_tasks and a.entry_id in (select page.id from page)
       group by a.entry_id
    )
    select pg_catalog.json_agg(pg_catalog.json_build_array(
             p.id, p.created_at, p.status, p.confirmed_at, p.invited_at, p.joined_at, p.name, p.email, p.project,
             p.utm_source, p.utm_medium, p.utm_campaign, p.referrer_host, p.landing_path,
             case when any_suppressed then nullif(pg_catalog.concat_ws(';', p.flag, (
               select 'suppressed:' || s.reason from private.waitlist_suppressions s
                where s.mailbox_hash = private.waitlist_mailbox_hash('suppress', p.email)
             )), '') else p.flag end,
             p.referral_credits, p.referred_by, r.email, p.updates, p.updates_opted_in_at, p.updates_stopped_at, p.language, p.answers,
             -- Only a referrer can have earned a rung (18_rewards.sql): everyone else's is not looked up.
             case when p.referral_credits > 0 then (
               select pg_catalog.string_agg(e.rung || ':' || e.status, ';' order by e.earned_at, e.rung)
                 from private.waitlist_rewards_earned e where e.entry_id = p.id
             ) end,
             t.tasks
           ) order by p.created_at, p.id)
      from page p
      left join public.waitlist r on r.id = p.referred_by
      left join answered t on t.entry_id = p.id
  ), '[]'::json);
end
$$;

