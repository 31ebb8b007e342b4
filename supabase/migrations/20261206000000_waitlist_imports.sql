-- Imports (issue #52): a list brought from another tool. The whole story is in
-- supabase/schemas/16_imports.sql; this migration brings a database from 20261205000000 to it.

alter table public.waitlist drop constraint waitlist_flag_known;
alter table public.waitlist add constraint waitlist_flag_known check (flag in ('domain_burst', 'disposable'));

comment on column public.waitlist.flag is
  '''domain_burst'' when the row arrived during an unusual burst of sign-ups with its e-mail domain; ''disposable'' for an imported address at a disposable-mail domain (16_imports.sql); null otherwise.';

-- Every inserting role evaluates it: the waitlist_mailbox index is on it.
grant execute on function waitlist_rules.mailbox_key(text) to anon, authenticated, service_role;

drop index public.waitlist_outbox_claim_order;
create index waitlist_outbox_claim_order on public.waitlist_outbox ((kind = 'update_email' or payload ? 'import'), (kind not like '%\_email'), available_at, created_at)
  where status = 'pending';

create table private.waitlist_imports (
  id uuid primary key,
  started_at timestamptz not null default now(),
  committed_at timestamptz,
  -- Every held message released (the commit's last call); until then the dispatcher's purge goes on releasing.
  released_at timestamptz,
  file_sha256 text not null check (file_sha256 ~ '^[0-9a-f]{64}$'),
  consent text check (consent is null or (char_length(consent) between 1 and 500 and waitlist_rules.plain_text(consent))),
  arrival_base bigint not null
);

comment on table private.waitlist_imports is
  'Lists brought from another tool (npm run waitlist:import): when, which file (SHA-256), the consent the founder recorded, and the arrivals reserved for its rows with a sign-up time (arrival_base + rank).';

revoke all on table private.waitlist_imports from public, anon, authenticated, service_role;

create table private.waitlist_imported (
  -- Deferred: the chunk writes this row before the entry, so the entry's insert triggers find it.
  entry_id uuid primary key references public.waitlist (id) on delete cascade deferrable initially deferred,
  import_id uuid not null references private.waitlist_imports (id) on delete cascade,
  line integer not null check (line >= 1),
  arrival bigint unique
);

comment on table private.waitlist_imported is
  'The entries an import wrote: the file''s line, and the arrival reserved by the original sign-up time (null without one).';

create index waitlist_imported_import on private.waitlist_imported (import_id);

revoke all on table private.waitlist_imported from public, anon, authenticated, service_role;

-- Every spelling of one inbox finds it: "already on the list" for an import is an index lookup at a
-- million entries, not a pass over them.
create index waitlist_mailbox on public.waitlist (waitlist_rules.mailbox_key(email));

-- The import whose chunk is being written in this transaction (null otherwise). The setting alone
-- proves nothing (any session may set its own settings): it must name an import still open.
create function private.waitlist_importing()
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
  return (select i.id from private.waitlist_imports i where i.id = named::uuid and i.committed_at is null);
end
$$;

revoke all on function private.waitlist_importing() from public, anon, authenticated, service_role;

-- What the list already says of each row: on the list (its mailbox, any spelling, or an earlier
-- line of the rows) and at a disposable-mail domain. One definition for the dry run and the write.
create function private.waitlist_import_verdicts(rows jsonb)
returns table (line integer, listed boolean, disposable boolean)
language sql
stable
security definer
set search_path = ''
as $$
  select r.line,
         pg_catalog.row_number() over (partition by m.mailbox order by r.line) > 1
           or exists (select 1 from public.waitlist w where waitlist_rules.mailbox_key(w.email) = m.mailbox),
         exists (
           select 1 from private.waitlist_domain_suffixes(pg_catalog.split_part(r.email, '@', -1)) s (domain)
             join private.waitlist_disposable_domains d on d.domain = s.domain
         )
    from pg_catalog.jsonb_to_recordset(rows) as r (line integer, email text)
    cross join lateral (select waitlist_rules.mailbox_key(r.email) as mailbox) m
$$;

revoke all on function private.waitlist_import_verdicts(jsonb) from public, anon, authenticated, service_role;

-- The dry run: the lines already on the list and those at a disposable-mail domain.
create function public.waitlist_import_check(rows jsonb)
returns jsonb
language sql
stable
security definer
set search_path = ''
as $$
  select pg_catalog.jsonb_build_object(
    'listed', coalesce(pg_catalog.jsonb_agg(v.line order by v.line) filter (where v.listed), '[]'::jsonb),
    'disposable', coalesce(pg_catalog.jsonb_agg(v.line order by v.line) filter (where v.disposable and not v.listed), '[]'::jsonb)
  )
    from private.waitlist_import_verdicts(rows) v
$$;

comment on function public.waitlist_import_check(jsonb) is
  'Dry run of an import chunk ([{line, email}]): the lines whose mailbox is already on the list, and those at a disposable-mail domain. Service role only.';

revoke all on function public.waitlist_import_check(jsonb) from public, anon, authenticated, service_role;
grant execute on function public.waitlist_import_check(jsonb) to service_role;

-- Opens an import: its arrivals (timed_rows of them) are reserved below every arrival in the line
-- and every earlier import's, under one lock so two imports never overlap.
create function public.waitlist_import_begin(import_id uuid, file_sha256 text, consent text, timed_rows integer)
returns void
language plpgsql
volatile
security definer
set search_path = ''
as $$
declare
  lowest bigint;
begin
  if timed_rows is null or timed_rows < 0 then
    raise exception 'timed_rows must be 0 or more' using errcode = '22023';
  end if;
  perform pg_catalog.pg_advisory_xact_lock(pg_catalog.hashtext('waitlist import'));
  lowest := least(
    coalesce((select min(l.arrival) from private.waitlist_line l), 1),
    coalesce((select min(i.arrival_base) from private.waitlist_imports i), 1)
  );
  insert into private.waitlist_imports (id, file_sha256, consent, arrival_base)
  values (import_id, file_sha256, nullif(public.waitlist_trim(consent), ''), lowest - timed_rows - 1);
end
$$;

comment on function public.waitlist_import_begin(uuid, text, text, integer) is
  'Opens an import (tools/owner/waitlist-import.ts); its chunks follow, then waitlist_import_commit or waitlist_import_abort. Service role only.';

revoke all on function public.waitlist_import_begin(uuid, text, text, integer) from public, anon, authenticated, service_role;
grant execute on function public.waitlist_import_begin(uuid, text, text, integer) to service_role;

-- Writes one chunk of checked rows ([{line, name, email, project, signed_up_at, source, language,
-- answers, rank}]; rank orders the rows with a time, 1 the earliest). A row already on the list is
-- skipped; every other row is an entry, its messages held until the commit.
create function public.waitlist_import_chunk(import_id uuid, rows jsonb)
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
  if not found or batch.committed_at is not null then
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

  insert into private.waitlist_imported (entry_id, import_id, line, arrival)
  select t.entry_id, batch.id, t.line, case when t.rank is not null then batch.arrival_base + t.rank end
    from waitlist_import_rows t
   where not t.listed;

  insert into public.waitlist (id, name, email, project, created_at, status, utm_source, utm_medium, language, answers, flag)
  select t.entry_id, t.name, t.email, t.project, coalesce(t.signed_up_at, pg_catalog.now()),
         case when batch.consent is null then 'pending' else 'confirmed' end,
         t.source, 'import', t.language, t.answers, case when t.disposable then 'disposable' end
    from waitlist_import_rows t
   where not t.listed
   order by t.rank nulls last, t.line;

  select pg_catalog.array_agg(t.entry_id) into written from waitlist_import_rows t where not t.listed;
  -- Held until the commit; an import's confirmation e-mails wait behind every other e-mail but updates.
  update public.waitlist_outbox o
     set available_at = 'infinity',
         payload = case when o.kind = 'confirmation_email' then o.payload || pg_catalog.jsonb_build_object('import', batch.id) else o.payload end
   where o.entry_id = any(written) and o.kind <> 'slack_confirmed';
  delete from public.waitlist_outbox o where o.entry_id = any(written) and o.kind = 'slack_confirmed';

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
  'Writes one chunk of an open import; the entries'' messages are held until waitlist_import_commit. Answers {written, listed: [lines], disposable: [lines]}. Service role only.';

revoke all on function public.waitlist_import_chunk(uuid, jsonb) from public, anon, authenticated, service_role;
grant execute on function public.waitlist_import_chunk(uuid, jsonb) to service_role;

-- The point of no return, then the release of the held messages, at most max_messages a call (the
-- API's statement timeout); answers how many are still held. A committed import cannot be aborted.
create function public.waitlist_import_commit(import_id uuid, max_messages integer default 20000)
returns integer
language plpgsql
volatile
security definer
set search_path = ''
as $$
declare
  held integer;
begin
  update private.waitlist_imports i set committed_at = pg_catalog.now()
   where i.id = import_id and i.committed_at is null;
  if not found and not exists (select 1 from private.waitlist_imports i where i.id = import_id) then
    raise exception 'no import %', import_id using errcode = '22023';
  end if;
  with waiting as (
    select h.id from private.waitlist_imported e
      join public.waitlist_outbox h on h.entry_id = e.entry_id
     where e.import_id = waitlist_import_commit.import_id and h.available_at = 'infinity'
  ), released as (
    update public.waitlist_outbox o set available_at = pg_catalog.now()
     where o.id in (select w.id from waiting w limit greatest(max_messages, 1))
    returning 1
  )
  select (select count(*) from waiting) - (select count(*) from released) into held;
  if held = 0 then
    update private.waitlist_imports i set released_at = pg_catalog.now() where i.id = import_id and i.released_at is null;
  end if;
  return held;
end
$$;

comment on function public.waitlist_import_commit(uuid, integer) is
  'Commits an import and releases up to max_messages of its held messages; answers how many are still held (call again until 0). Service role only.';

revoke all on function public.waitlist_import_commit(uuid, integer) from public, anon, authenticated, service_role;
grant execute on function public.waitlist_import_commit(uuid, integer) to service_role;

-- Takes an import not committed out again, at most max_entries a call; answers how many are left
-- (0: the import is gone).
create function public.waitlist_import_abort(import_id uuid, max_entries integer default 5000)
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
  delete from public.waitlist w
   where w.id in (select e.entry_id from private.waitlist_imported e where e.import_id = batch.id limit greatest(max_entries, 1));
  select count(*) into left_over from private.waitlist_imported e where e.import_id = batch.id;
  if left_over = 0 then
    delete from private.waitlist_imports i where i.id = batch.id;
  end if;
  return left_over;
end
$$;

comment on function public.waitlist_import_abort(uuid, integer) is
  'Deletes up to max_entries entries of an import not committed (no message about them was sent); answers how many are left, 0 once the import is gone. Service role only.';

revoke all on function public.waitlist_import_abort(uuid, integer) from public, anon, authenticated, service_role;
grant execute on function public.waitlist_import_abort(uuid, integer) to service_role;

-- The imports not committed: a command that died, or one running now.
create function public.waitlist_imports_open()
returns table (id uuid, started_at timestamptz, file_sha256 text)
language sql
stable
security definer
set search_path = ''
as $$
  select i.id, i.started_at, i.file_sha256
    from private.waitlist_imports i
   where i.committed_at is null
   order by i.started_at
$$;

revoke all on function public.waitlist_imports_open() from public, anon, authenticated, service_role;
grant execute on function public.waitlist_imports_open() to service_role;

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
    -- An imported entry with its original sign-up time has its arrival reserved (16_imports.sql);
    -- coalesce draws from the sequence only without one.
    insert into private.waitlist_line (entry_id, arrival, line_key)
    select new.id, a.arrival, private.waitlist_line_key(a.arrival, new.referral_credits, new.status)
      from (select coalesce(
              (select i.arrival from private.waitlist_imported i where i.entry_id = new.id),
              pg_catalog.nextval('private.waitlist_line_arrival')
            ) as arrival) a;
  end if;
  return null;
end
$$;

create or replace function private.waitlist_answers()
returns trigger
language plpgsql
security definer
set search_path = ''
as $$
declare
  q private.waitlist_questions;
  given jsonb;
  answer text;
  picked text[];
  stored jsonb := '{}'::jsonb;
begin
  if new.answers is null then
    new.answers := '{}'::jsonb;
  end if;
  if pg_catalog.jsonb_typeof(new.answers) <> 'object' then
    raise exception 'answers must be an object of question keys and answers' using errcode = 'WLA02';
  end if;
  -- A required question unanswered refuses the sign-up, not a row of a list brought from another tool
  -- (16_imports.sql), which was never asked it: the import is looked for only then, off a sign-up's way.
  for q in select * from private.waitlist_questions order by position loop
    given := new.answers -> q.key;
    if given is not null and pg_catalog.jsonb_typeof(given) = 'null' then
      given := null;
    end if;
    if q.kind = 'text' then
      if given is not null and pg_catalog.jsonb_typeof(given) <> 'string' then
        raise exception 'the answer to "%" must be text', q.key using errcode = 'WLA02';
      end if;
      answer := public.waitlist_trim(coalesce(given #>> '{}', ''));
      if answer = '' then
        if q.required and private.waitlist_importing() is null then
          raise exception 'an answer to "%" is required', q.key using errcode = 'WLA01';
        end if;
        continue;
      end if;
      if pg_catalog.char_length(answer) > 200 then
        raise exception 'the answer to "%" is over 200 characters', q.key using errcode = 'WLA03';
      end if;
      if not waitlist_rules.plain_text(answer) then
        raise exception 'the answer to "%" contains control or text-direction characters', q.key using errcode = 'WLA04';
      end if;
      stored := stored || pg_catalog.jsonb_build_object(
        q.key, pg_catalog.jsonb_build_object('question', private.waitlist_label(q.labels, new.language), 'kind', q.kind, 'text', answer)
      );
      continue;
    end if;
    -- A choice: one option key, or (several choices) a list of them.
    if given is null or (pg_catalog.jsonb_typeof(given) = 'array' and pg_catalog.jsonb_array_length(given) = 0) then
      if q.required and private.waitlist_importing() is null then
        raise exception 'an answer to "%" is required', q.key using errcode = 'WLA01';
      end if;
      continue;
    end if;
    if pg_catalog.jsonb_typeof(given) = 'string' then
      given := pg_catalog.jsonb_build_array(given);
    elsif q.kind = 'one' or pg_catalog.jsonb_typeof(given) <> 'array' then
      raise exception 'the answer to "%" must be one of its options', q.key using errcode = 'WLA02';
    end if;
    if q.kind = 'one' and pg_catalog.jsonb_array_length(given) <> 1 then
      raise exception 'the answer to "%" must be one of its options', q.key using errcode = 'WLA02';
    end if;
    if exists (
      select 1
        from pg_catalog.jsonb_array_elements(given) g
       where pg_catalog.jsonb_typeof(g) <> 'string'
          or not exists (select 1 from pg_catalog.jsonb_array_elements(q.options) o where o ->> 'key' = g #>> '{}')
    ) then
      raise exception 'an answer to "%" is not one of its options', q.key using errcode = 'WLA02';
    end if;
    -- Each option once, in the question's order.
    stored := stored || pg_catalog.jsonb_build_object(q.key, (
      select pg_catalog.jsonb_build_object(
               'question', private.waitlist_label(q.labels, new.language),
               'kind', q.kind,
               'options', pg_catalog.jsonb_agg(o.value -> 'key' order by o.ordinality),
               'labels', pg_catalog.jsonb_agg(private.waitlist_label(o.value -> 'labels', new.language) order by o.ordinality)
             )
        from pg_catalog.jsonb_array_elements(q.options) with ordinality o
       where given @> pg_catalog.jsonb_build_array(o.value -> 'key')
    ));
  end loop;
  new.answers := stored;
  return new;
end
$$;

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
     -- Update e-mails and an imported list's confirmations (16_imports.sql) last: a broadcast or an
     -- import of thousands waits for the hourly cap, and must not hold back the links a new
     -- sign-up is waiting for (or an invitation) behind it. Slack and webhooks
     -- after the other e-mails: their retries pile up while a receiver is down.
     order by o.kind = 'update_email' or o.payload ? 'import', o.kind not like '%\_email', o.available_at, o.created_at
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
         ) order by t.kind = 'update_email' or t.payload ? 'import', t.kind not like '%\_email', t.available_at, t.created_at), '[]'::jsonb)
    into claimed
    from grabbed t
    left join public.waitlist w on w.id = t.entry_id;
  return claimed;
end
$$;

create or replace function public.waitlist_outbox_attach_token(message_id uuid, lease uuid, new_token_hash text)
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
  -- What an import's command left when it died (16_imports.sql), a chunk a run: an import open for
  -- an hour is taken out again, a committed one's held messages are released.
  perform public.waitlist_import_abort(i.id)
     from private.waitlist_imports i
    where i.committed_at is null and i.started_at < pg_catalog.now() - interval '1 hour'
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

create or replace function private.waitlist_webhook_left()
returns trigger
language plpgsql
security definer
set search_path = ''
as $$
begin
  -- Nor an imported entry taken out with its import before the commit: its events were held, never sent.
  if old.status <> 'pending'
     and not exists (
       select 1 from private.waitlist_imported e join private.waitlist_imports i on i.id = e.import_id
        where e.entry_id = old.id and i.committed_at is null
     ) then
    perform private.waitlist_enqueue_webhook('entry.left', null, pg_catalog.jsonb_build_object('id', old.id), coalesce(
      (select max(o.lease_until) from public.waitlist_outbox o where o.entry_id = old.id and o.kind = 'webhook' and o.handed_at is not null),
      pg_catalog.now()
    ));
  end if;
  return old;
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
    'messages', (
      select coalesce(pg_catalog.jsonb_agg(pg_catalog.jsonb_build_object(
               'kind', o.kind, 'status', o.status, 'attempts', o.attempts, 'created_at', o.created_at, 'sent_at', o.sent_at
             ) order by o.created_at), '[]'::jsonb)
        from public.waitlist_outbox o
       where o.entry_id = entry.id
    ),
    'exported_at', pg_catalog.now()
  );
end
$$;
