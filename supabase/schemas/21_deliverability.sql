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
