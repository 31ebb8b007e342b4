-- The import's faults (issue #66) and the languages the site publishes. The whole story is in
-- supabase/schemas/16_imports.sql (imports all or none across runs, one open at a time, a consented
-- import confirmed after its commit), 07_outbox.sql (the claim's ranks: no urgent message behind a
-- bulk one) and 17_languages.sql; this migration brings a database from 20261206000000 to them.

alter table private.waitlist_imports add column aborted_at timestamptz;
alter table private.waitlist_imports add constraint waitlist_imports_ended check (committed_at is null or aborted_at is null);

alter table private.waitlist_imported add column written_at timestamptz not null default now();
alter table private.waitlist_imported add column to_confirm boolean not null default false;

comment on table private.waitlist_imported is
  'The entries an import wrote: the file''s line, the arrival reserved by the original sign-up time (null without one), when it was written, and whether the commit has still to confirm it (a consented import).';

drop index private.waitlist_imported_import;
create index waitlist_imported_import on private.waitlist_imported (import_id, written_at);

create index waitlist_imported_to_confirm on private.waitlist_imported (import_id, line) where to_confirm;

-- An open import that wrote nothing for this long belongs to a run that died (or hangs): the next
-- run takes it out. A live run writes a chunk every few seconds (each within the API's 8 s).
create function private.waitlist_import_quiet_after()
returns interval
language sql
immutable
set search_path = ''
as $$
  select interval '1 minute'
$$;

revoke all on function private.waitlist_import_quiet_after() from public, anon, authenticated, service_role;

-- When an import last wrote: its newest chunk, or its start (an index read, not a pass over its entries).
create function private.waitlist_import_active_at(import_id uuid)
returns timestamptz
language sql
stable
security definer
set search_path = ''
as $$
  select greatest(
    (select i.started_at from private.waitlist_imports i where i.id = waitlist_import_active_at.import_id),
    (select max(e.written_at) from private.waitlist_imported e where e.import_id = waitlist_import_active_at.import_id)
  )
$$;

revoke all on function private.waitlist_import_active_at(uuid) from public, anon, authenticated, service_role;

-- Whether an entry belongs to an import not committed: not on the list yet, for anyone.
create function private.waitlist_import_pending(entry uuid)
returns boolean
language sql
stable
security definer
set search_path = ''
as $$
  select exists (
    select 1 from private.waitlist_imported e join private.waitlist_imports i on i.id = e.import_id
     where e.entry_id = entry and i.committed_at is null
  )
$$;

revoke all on function private.waitlist_import_pending(uuid) from public, anon, authenticated, service_role;


-- The import whose chunk is being written in this transaction (null otherwise). The setting alone
-- proves nothing (any session may set its own settings): it must name an import still open.
create or replace function private.waitlist_importing()
returns uuid
language plpgsql
stable
security definer
set search_path = ''
as $$
declare
  named text := nullif(pg_catalog.current_setting('waitlist.import', true), '');
begin
  if named is null or named !~ '^[0-9a-f-]{36}$' then
    return null;
  end if;
  return (select i.id from private.waitlist_imports i where i.id = named::uuid and i.committed_at is null and i.aborted_at is null);
end
$$;

revoke all on function private.waitlist_importing() from public, anon, authenticated, service_role;

-- What the list already says of each row: on the list (its mailbox, any spelling, or an earlier
-- line of the rows; an entry of an import not committed is not on the list) and at a
-- disposable-mail domain. One definition for the dry run and the write.
create or replace function private.waitlist_import_verdicts(rows jsonb)
returns table (line integer, listed boolean, disposable boolean)
language sql
stable
security definer
set search_path = ''
as $$
  select r.line,
         pg_catalog.row_number() over (partition by m.mailbox order by r.line) > 1
           or exists (
             select 1 from public.waitlist w
              where waitlist_rules.mailbox_key(w.email) = m.mailbox and not private.waitlist_import_pending(w.id)
           ),
         exists (
           select 1 from private.waitlist_domain_suffixes(pg_catalog.split_part(r.email, '@', -1)) s (domain)
             join private.waitlist_disposable_domains d on d.domain = s.domain
         )
    from pg_catalog.jsonb_to_recordset(rows) as r (line integer, email text)
    cross join lateral (select waitlist_rules.mailbox_key(r.email) as mailbox) m
$$;

revoke all on function private.waitlist_import_verdicts(jsonb) from public, anon, authenticated, service_role;

-- Opens an import: its arrivals (timed_rows of them) are reserved below every arrival in the line
-- and every earlier import's, under one lock. Refused (55006) while another import is open: the
-- command takes a dead run's import out first (waitlist_import_abort with only_quiet) and waits
-- for a live one, so two imports never write at once.
create or replace function public.waitlist_import_begin(import_id uuid, file_sha256 text, consent text, timed_rows integer)
returns void
language plpgsql
volatile
security definer
set search_path = ''
as $$
declare
  lowest bigint;
  open_id uuid;
begin
  if timed_rows is null or timed_rows < 0 then
    raise exception 'timed_rows must be 0 or more' using errcode = '22023';
  end if;
  perform pg_catalog.pg_advisory_xact_lock(pg_catalog.hashtext('waitlist import'));
  select i.id into open_id from private.waitlist_imports i where i.committed_at is null order by i.started_at limit 1;
  if found then
    raise exception 'import % is still open', open_id
      using errcode = '55006', hint = 'Take it out when its run has died (waitlist_import_abort with only_quiet), or wait for it to end.';
  end if;
  lowest := least(
    coalesce((select min(l.arrival) from private.waitlist_line l), 1),
    coalesce((select min(i.arrival_base) from private.waitlist_imports i), 1)
  );
  insert into private.waitlist_imports (id, file_sha256, consent, arrival_base)
  values (import_id, file_sha256, nullif(public.waitlist_trim(consent), ''), lowest - timed_rows - 1);
end
$$;

comment on function public.waitlist_import_begin(uuid, text, text, integer) is
  'Opens an import (tools/owner/waitlist-import.ts); its chunks follow, then waitlist_import_commit or waitlist_import_abort. Refused (55006) while another import is open. Service role only.';

revoke all on function public.waitlist_import_begin(uuid, text, text, integer) from public, anon, authenticated, service_role;
grant execute on function public.waitlist_import_begin(uuid, text, text, integer) to service_role;

-- Writes one chunk of checked rows ([{line, name, email, project, signed_up_at, source, language,
-- answers, rank}]; rank orders the rows with a time, 1 the earliest). A row already on the list is
-- skipped; every other row is a pending entry, its messages held until the commit (a consented
-- import's people are confirmed by the commit).
create or replace function public.waitlist_import_chunk(import_id uuid, rows jsonb)
returns jsonb
language plpgsql
volatile
security definer
set search_path = ''
as $$
declare
  batch private.waitlist_imports;
  verdicts jsonb;
  written uuid[];
begin
  select * into batch from private.waitlist_imports i where i.id = import_id for share;
  if not found or batch.committed_at is not null or batch.aborted_at is not null then
    raise exception 'no open import %', import_id using errcode = '22023';
  end if;
  perform pg_catalog.set_config('waitlist.import', batch.id::text, true);

  create temporary table if not exists waitlist_import_rows (
    entry_id uuid, line integer, name text, email text, project text, signed_up_at timestamptz,
    source text, language text, answers jsonb, rank integer, listed boolean, disposable boolean
  ) on commit drop;
  truncate waitlist_import_rows;
  insert into waitlist_import_rows
  select gen_random_uuid(), r.line, r.name, r.email, coalesce(r.project, ''), r.signed_up_at, r.source,
         coalesce(r.language, 'en'), coalesce(r.answers, '{}'::jsonb), r.rank, v.listed, v.disposable
    from pg_catalog.jsonb_to_recordset(rows) as r (
           line integer, name text, email text, project text, signed_up_at timestamptz, source text,
           language text, answers jsonb, rank integer
         )
    join private.waitlist_import_verdicts(rows) v on v.line = r.line;

  insert into private.waitlist_imported (entry_id, import_id, line, arrival, to_confirm)
  select t.entry_id, batch.id, t.line, case when t.rank is not null then batch.arrival_base + t.rank end, batch.consent is not null
    from waitlist_import_rows t
   where not t.listed;

  insert into public.waitlist (id, name, email, project, created_at, utm_source, utm_medium, language, answers, flag)
  select t.entry_id, t.name, t.email, t.project, coalesce(t.signed_up_at, pg_catalog.now()),
         t.source, 'import', t.language, t.answers, case when t.disposable then 'disposable' end
    from waitlist_import_rows t
   where not t.listed
   order by t.rank nulls last, t.line;

  select pg_catalog.array_agg(t.entry_id) into written from waitlist_import_rows t where not t.listed;
  -- A consented import's people need no link (the commit confirms them); anyone else's are held until
  -- the commit, bulk (private.waitlist_outbox_rank).
  if batch.consent is not null then
    delete from public.waitlist_outbox o where o.entry_id = any(written) and o.kind = 'confirmation_email';
  end if;
  update public.waitlist_outbox o
     set available_at = 'infinity', payload = o.payload || pg_catalog.jsonb_build_object('import', batch.id)
   where o.entry_id = any(written);

  select pg_catalog.jsonb_build_object(
    'written', count(*) filter (where not t.listed),
    'listed', coalesce(pg_catalog.jsonb_agg(t.line order by t.line) filter (where t.listed), '[]'::jsonb),
    'disposable', coalesce(pg_catalog.jsonb_agg(t.line order by t.line) filter (where t.disposable and not t.listed), '[]'::jsonb)
  ) into verdicts
    from waitlist_import_rows t;
  perform pg_catalog.set_config('waitlist.import', '', true);
  return verdicts;
end
$$;

comment on function public.waitlist_import_chunk(uuid, jsonb) is
  'Writes one chunk of an open import as pending entries, their messages held until waitlist_import_commit. Answers {written, listed: [lines], disposable: [lines]}. Service role only.';

revoke all on function public.waitlist_import_chunk(uuid, jsonb) from public, anon, authenticated, service_role;
grant execute on function public.waitlist_import_chunk(uuid, jsonb) to service_role;


drop function public.waitlist_import_commit(uuid, integer);

-- The point of no return, then what follows it, a batch a call within the API's statement timeout:
-- up to max_entries of a consented import's people confirmed (their Slack posts dropped, their
-- webhooks bulk), and up to max_messages held messages
-- released. Answers how much is still to do (call again until 0). Calls after the first may run side
-- by side: each takes rows the others have not locked. A committed import cannot be aborted.
create function public.waitlist_import_commit(import_id uuid, max_messages integer default 20000, max_entries integer default 1000)
returns integer
language plpgsql
volatile
security definer
set search_path = ''
as $$
declare
  batch private.waitlist_imports;
  confirming uuid[];
  held integer;
begin
  update private.waitlist_imports i set committed_at = pg_catalog.now()
   where i.id = import_id and i.committed_at is null and i.aborted_at is null;
  select * into batch from private.waitlist_imports i where i.id = import_id;
  if not found or batch.committed_at is null then
    raise exception 'no import % to commit', import_id using errcode = '22023';
  end if;

  select pg_catalog.array_agg(c.entry_id) into confirming
    from (select e.entry_id from private.waitlist_imported e
           where e.import_id = batch.id and e.to_confirm
           order by e.line limit greatest(max_entries, 1)
           for update skip locked) c;
  if confirming is not null then
    update public.waitlist w set status = 'confirmed' where w.id = any(confirming) and w.status = 'pending';
    update private.waitlist_imported e set to_confirm = false where e.entry_id = any(confirming);
    delete from public.waitlist_outbox o where o.entry_id = any(confirming) and o.kind = 'slack_confirmed';
    update public.waitlist_outbox o set payload = o.payload || pg_catalog.jsonb_build_object('import', batch.id)
     where o.entry_id = any(confirming) and o.kind = 'webhook' and not o.payload ? 'import';
  end if;

  -- Held messages are found from the outbox's due index (held ones are pending at 'infinity'), not
  -- by reading every entry of the import at each call: the calls after the commit are many.
  with waiting as (
    select h.id from public.waitlist_outbox h
      join private.waitlist_imported e on e.entry_id = h.entry_id
     where h.status = 'pending' and h.available_at = 'infinity' and e.import_id = batch.id
     limit greatest(max_messages, 1)
     for update of h skip locked
  )
  update public.waitlist_outbox o set available_at = pg_catalog.now()
   where o.id in (select w.id from waiting w);

  select (select count(*) from private.waitlist_imported e where e.import_id = batch.id and e.to_confirm)
       + (select count(*) from public.waitlist_outbox h
            join private.waitlist_imported e on e.entry_id = h.entry_id
           where h.status = 'pending' and h.available_at = 'infinity' and e.import_id = batch.id)
    into held;
  if held = 0 and batch.released_at is null then
    update private.waitlist_imports i set released_at = pg_catalog.now() where i.id = batch.id and i.released_at is null;
  end if;
  return held;
end
$$;

comment on function public.waitlist_import_commit(uuid, integer, integer) is
  'Commits an import, then confirms up to max_entries of a consented import''s people and releases up to max_messages of its held messages; answers how much is still to do (call again until 0). Service role only.';

revoke all on function public.waitlist_import_commit(uuid, integer, integer) from public, anon, authenticated, service_role;
grant execute on function public.waitlist_import_commit(uuid, integer, integer) to service_role;


drop function public.waitlist_import_abort(uuid, integer);

-- Takes an import not committed out again, at most max_entries a call; answers how many are left
-- (0: the import is gone). With only_quiet, only an import whose run died (quiet for
-- waitlist_import_quiet_after) is touched: a live run's import is refused (55006). Once taking out
-- has begun, the import's chunks and commit are refused, and later calls go on whatever only_quiet says.
create function public.waitlist_import_abort(import_id uuid, max_entries integer default 5000, only_quiet boolean default false)
returns integer
language plpgsql
volatile
security definer
set search_path = ''
as $$
declare
  batch private.waitlist_imports;
  left_over integer;
begin
  select * into batch from private.waitlist_imports i where i.id = import_id for update;
  if not found then
    return 0;
  end if;
  if batch.committed_at is not null then
    raise exception 'import % is committed: its people are on the list', import_id using errcode = '22023';
  end if;
  if batch.aborted_at is null then
    if only_quiet and private.waitlist_import_active_at(batch.id) > pg_catalog.now() - private.waitlist_import_quiet_after() then
      raise exception 'import % is still writing', import_id using errcode = '55006';
    end if;
    update private.waitlist_imports i set aborted_at = pg_catalog.now() where i.id = batch.id;
  end if;
  delete from public.waitlist w
   where w.id in (select e.entry_id from private.waitlist_imported e where e.import_id = batch.id limit greatest(max_entries, 1));
  select count(*) into left_over from private.waitlist_imported e where e.import_id = batch.id;
  if left_over = 0 then
    delete from private.waitlist_imports i where i.id = batch.id;
  end if;
  return left_over;
end
$$;

comment on function public.waitlist_import_abort(uuid, integer, boolean) is
  'Deletes up to max_entries entries of an import not committed (no message about them was sent); answers how many are left, 0 once the import is gone. only_quiet: refused (55006) while the import is still writing. Service role only.';

revoke all on function public.waitlist_import_abort(uuid, integer, boolean) from public, anon, authenticated, service_role;
grant execute on function public.waitlist_import_abort(uuid, integer, boolean) to service_role;


drop function public.waitlist_imports_open();

-- The imports not committed: a command that died, one running now, or one being taken out; quiet
-- when it wrote nothing for waitlist_import_quiet_after.
create function public.waitlist_imports_open()
returns table (id uuid, started_at timestamptz, file_sha256 text, active_at timestamptz, quiet boolean, aborting boolean)
language sql
stable
security definer
set search_path = ''
as $$
  select i.id, i.started_at, i.file_sha256, a.active_at,
         a.active_at <= pg_catalog.now() - private.waitlist_import_quiet_after(), i.aborted_at is not null
    from private.waitlist_imports i
    cross join lateral (select private.waitlist_import_active_at(i.id) as active_at) a
   where i.committed_at is null
   order by i.started_at
$$;

revoke all on function public.waitlist_imports_open() from public, anon, authenticated, service_role;
grant execute on function public.waitlist_imports_open() to service_role;


-- An expired pending entry of the same address gives way to the new sign-up. Runs after
-- waitlist_rate_limit (triggers fire in name order), which holds the address's advisory lock, so
-- two sign-ups of one address cannot both delete and insert.
create or replace function private.waitlist_replace_expired()
returns trigger
language plpgsql
security definer
set search_path = ''
as $$
begin
  -- Also an entry of an import not committed (16_imports.sql), unless it is this import's own: it is
  -- not on the list yet, and the person signing up now is.
  delete from public.waitlist w
   where w.email_key = pg_catalog.lower(new.email)
     and w.status = 'pending'
     and (w.confirm_by <= pg_catalog.now()
          or (private.waitlist_import_pending(w.id)
              and not exists (select 1 from private.waitlist_imported e where e.entry_id = w.id and e.import_id = private.waitlist_importing())));
  return new;
end
$$;

revoke all on function private.waitlist_replace_expired() from public, anon, authenticated, service_role;

-- A new link for whoever holds the mailbox: a confirmation link while the entry is pending, a link
-- to the person's own page once it is confirmed. The same answer (nothing) for any address; at most
-- one per address per interval, never while one is on its way, and never past the mailbox's cap.
-- Asking keeps nothing alive: confirm_by does not move.
create or replace function public.waitlist_request_link(email text)
returns void
language plpgsql
volatile
security definer
set search_path = ''
as $$
declare
  settings private.waitlist_confirmation_settings;
  caps private.waitlist_mail_caps;
  normalized text;
  entry public.waitlist;
begin
  select * into strict settings from private.waitlist_confirmation_settings;
  select * into strict caps from private.waitlist_mail_caps;
  perform private.waitlist_limit_network(
    'request_link', settings.link_requests_per_client, settings.window_seconds,
    'Too many attempts from this network. Please wait a few minutes and try again.', 'requests'
  );
  if email is null or pg_catalog.char_length(email) > 320 then
    return;
  end if;
  normalized := waitlist_rules.normalize_email(email);
  perform pg_catalog.pg_advisory_xact_lock(pg_catalog.hashtext('waitlist email'), pg_catalog.hashtext(pg_catalog.lower(normalized)));
  select * into entry from public.waitlist w where w.email_key = pg_catalog.lower(normalized) for update;
  -- An entry of an import not committed (16_imports.sql) is not on the list yet: no link for it.
  if not found or (entry.status = 'pending' and (entry.confirm_by <= pg_catalog.now() or private.waitlist_import_pending(entry.id))) then
    return;
  end if;
  if exists (
    select 1 from public.waitlist_outbox o
     where o.entry_id = entry.id and o.kind in ('confirmation_email', 'access_email')
       and (o.status in ('pending', 'sending') or o.created_at > pg_catalog.now() - pg_catalog.make_interval(secs => settings.link_request_interval_seconds))
  ) then
    return;
  end if;
  if (select count(*) from private.waitlist_mail_log l
       where l.recipient_hash = private.waitlist_mailbox_hash('mail', entry.email) and l.kind in ('confirmation_email', 'access_email')
         and l.created_at > pg_catalog.now() - caps.recipient_window) >= caps.unproven_per_recipient then
    return;
  end if;
  insert into public.waitlist_outbox (entry_id, kind)
  values (entry.id, case when entry.status = 'pending' then 'confirmation_email' else 'access_email' end);
end
$$;

comment on function public.waitlist_request_link(text) is
  'Queues a new link for the address (confirmation while pending, own page once confirmed); answers the same for any address. Rate limited per network, per address and per mailbox.';

revoke all on function public.waitlist_request_link(text) from public, anon, authenticated, service_role;
grant execute on function public.waitlist_request_link(text) to anon, service_role;

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


-- How urgent a message is, 0 the most: the claim's first key (public.waitlist_outbox_claim).
--   0  the e-mails a person is waiting for: a link, an invitation, a reminder, an erasure;
--   1  Slack, and the entry.invited webhooks the product's tools let people in with;
--   2  every other webhook (their retries pile up while a receiver is down);
--   3  bulk: update e-mails, and an imported list's e-mails and webhooks (payload.import,
--      16_imports.sql): thousands at once, sharing the hourly cap with the links people wait for.
create function private.waitlist_outbox_rank(kind text, payload jsonb)
returns smallint
language sql
immutable
parallel safe
set search_path = ''
return case
  when kind = 'update_email' or payload ? 'import' then 3
  when kind like '%\_email' then 0
  when kind like 'slack\_%' or payload ->> 'type' = 'entry.invited' then 1
  else 2
end;

revoke all on function private.waitlist_outbox_rank(text, jsonb) from public, anon, authenticated, service_role;


drop index public.waitlist_outbox_claim_order;
create index waitlist_outbox_claim_order on public.waitlist_outbox (private.waitlist_outbox_rank(kind, payload), available_at, created_at)
  where status = 'pending';

-- Claims due messages under a lease, within the e-mail caps (one claim at a time decides, an
-- advisory lock). An expired lease puts a message never handed to its transport back in line, and
-- makes one handed over 'in_doubt' (a webhook: pending again). Messages are claimed by rank
-- (private.waitlist_outbox_rank): due webhooks (a hung receiver's retries) never fill a claim ahead
-- of a sign-up's link or a Slack post, and bulk messages come after every other due message: they
-- share the hourly cap (500) with the links people are waiting for, and a post to a long list or
-- an import would otherwise put the next sign-up's confirmation hours behind it. Each message says
-- how long its lease is (lease_ms): the dispatcher's budget.
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


create table private.waitlist_languages (
  code text primary key check (code ~ '^[a-z]{2}(-[a-z]{2})?$')
);

comment on table private.waitlist_languages is
  'The languages the site publishes (the Languages document), English always among them; a sign-up in any other is refused. Replaced as a whole by public.waitlist_replace_languages.';

revoke all on table private.waitlist_languages from public, anon, authenticated, service_role;

insert into private.waitlist_languages (code) values ('en'), ('de');

create function private.waitlist_language_published()
returns trigger
language plpgsql
security definer
set search_path = ''
as $$
begin
  if not exists (select 1 from private.waitlist_languages l where l.code = new.language) then
    raise exception 'the site publishes no language %', pg_catalog.left(new.language, 20)
      using errcode = '23514', constraint = 'waitlist_language_published';
  end if;
  return new;
end
$$;

revoke all on function private.waitlist_language_published() from public, anon, authenticated, service_role;

create trigger waitlist_language_published
  before insert on public.waitlist
  for each row execute function private.waitlist_language_published();

-- Replaces the set as a whole (two publishes at once: the later wins, never a mix); English stays
-- whatever the document says. Answers how many languages are stored.
create function public.waitlist_replace_languages(codes text[])
returns integer
language plpgsql
volatile
security definer
set search_path = ''
as $$
declare
  stored integer;
begin
  if codes is null or pg_catalog.cardinality(codes) > 50
     or exists (select 1 from pg_catalog.unnest(codes) c where c is null or c !~ '^[a-z]{2}(-[a-z]{2})?$') then
    raise exception 'codes must be at most 50 language codes like en or pt-br' using errcode = '22023';
  end if;
  lock table private.waitlist_languages in exclusive mode;
  delete from private.waitlist_languages l where l.code <> all (codes || 'en'::text);
  insert into private.waitlist_languages (code)
  select distinct c from pg_catalog.unnest(codes || 'en'::text) c
  on conflict (code) do nothing;
  select count(*) into stored from private.waitlist_languages;
  return stored;
end
$$;

comment on function public.waitlist_replace_languages(text[]) is
  'For the site''s server (service role), after a publish: the languages the site publishes, English always among them; answers how many are stored.';

revoke all on function public.waitlist_replace_languages(text[]) from public, anon, authenticated, service_role;
grant execute on function public.waitlist_replace_languages(text[]) to service_role;

-- For the owner's import (tools/owner/import.ts): which languages a row may name.
create function public.waitlist_languages()
returns text[]
language sql
stable
security definer
set search_path = ''
as $$
  select pg_catalog.array_agg(l.code order by l.code) from private.waitlist_languages l
$$;

comment on function public.waitlist_languages() is
  'For the owner''s commands (service role): the languages a sign-up may be stored in.';

revoke all on function public.waitlist_languages() from public, anon, authenticated, service_role;
grant execute on function public.waitlist_languages() to service_role;
