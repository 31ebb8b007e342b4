-- Imports (issue #52): a list brought from another tool, `npm run waitlist:import -- list.csv`
-- (tools/owner/waitlist-import.ts checks every row first; these functions write the good ones).
--
-- Guarantees:
--   * All or none, across runs. The API cuts a statement at 8 s and one row costs about a
--     millisecond through the insert triggers, so an import is written in chunks
--     (public.waitlist_import_chunk), each entry tied to its import (private.waitlist_imported).
--     Until public.waitlist_import_commit an import's entries are not on the list for anyone: they
--     are pending whatever the consent, their messages held (available_at 'infinity'), and
--     private.waitlist_import_pending names them, so they are no other import's "already on the
--     list" (waitlist_import_verdicts), get no link on request (waitlist_request_link, 04_tokens.sql),
--     give way to a visitor signing up with the same address (waitlist_replace_expired), have no
--     place, no invitation, no webhook and no e-mail. A consented import's people are confirmed only
--     after the commit, a batch a call (waitlist_import_commit's max_entries), so none can be invited
--     from an import that may still be taken out. public.waitlist_import_abort deletes an import not
--     committed, with no entry.left webhook (07_outbox_webhooks.sql); once it has begun, the import's
--     own chunks and commit are refused.
--   * One open import at a time, and a dead run's import is taken out by the next. Each chunk
--     stamps its entries (written_at); an open import that wrote nothing for
--     private.waitlist_import_quiet_after() belongs to a run that died or hangs.
--     public.waitlist_import_begin refuses while any import is open; the command
--     (tools/owner/import.ts) takes a quiet one out first and waits for a live one. So a fixed file
--     run after a crash imports everyone, and the crashed run's entries never stand in its way.
--     waitlist_purge_pending (07_outbox.sql), every dispatcher run, finishes what a command that
--     died left: it aborts an import quiet for an hour, and finishes a committed one's confirmations
--     and releases.
--   * Nobody twice: a row whose mailbox is already on the list, in any spelling
--     (waitlist_rules.mailbox_key, read through the waitlist_mailbox index), is skipped and
--     reported, so running a file again adds nobody.
--   * The same rules as the form: every row goes through the same insert triggers (02_waitlist.sql,
--     15_questions.sql, 17_languages.sql), as the service role (no network limit). A question the
--     old tool never asked may be required on today's form: an import leaves it unanswered
--     (waitlist_answers asks private.waitlist_importing).
--   * Consent. Without it, imported people stay pending and get our confirmation e-mail, after every
--     other e-mail (the claim's bulk rank, private.waitlist_outbox_rank in 07_outbox.sql) and within
--     the hourly cap, so a list of thousands never holds back a new sign-up's link; their entry
--     waits for that e-mail (the purge spares an entry whose confirmation is still to be sent) and
--     its link lasts token_ttl from the send (waitlist_outbox_attach_token). With a consent
--     (`--consented "<where and when>"`) they are confirmed after the commit; the text is kept with
--     the import, tied to each entry, and is part of the person's own data (waitlist_export_me,
--     08_own_data.sql). No Slack post per person (the command reports the import), and their
--     webhooks are bulk, sent after every urgent message.
--   * Order: an entry given its original sign-up time keeps it (created_at) and its place. The
--     import's rows with a time reserve arrivals (private.waitlist_imported.arrival) ahead of
--     everyone in the line and of every earlier import, in the order of their times; the
--     waitlist_arrival trigger (05_line.sql) takes the reserved arrival at the first confirmation.
--     A row without a time is a sign-up of today.
--   * Disposable-mail domains are flagged (flag 'disposable'), never refused.
--   * Only the service role may call these functions; anon reads nothing here.
--
-- TypeScript twin: tools/owner/import.ts (the rows' checks and the calls).

create table private.waitlist_imports (
  id uuid primary key,
  started_at timestamptz not null default now(),
  committed_at timestamptz,
  -- Every consented entry confirmed and every held message released (the commit's last call);
  -- until then the dispatcher's purge goes on.
  released_at timestamptz,
  file_sha256 text not null check (file_sha256 ~ '^[0-9a-f]{64}$'),
  consent text check (consent is null or (char_length(consent) between 1 and 500 and waitlist_rules.plain_text(consent))),
  arrival_base bigint not null,
  -- Taking it out has begun (public.waitlist_import_abort): its chunks and its commit are refused from then on.
  aborted_at timestamptz,
  constraint waitlist_imports_ended check (committed_at is null or aborted_at is null)
);

comment on table private.waitlist_imports is
  'Lists brought from another tool (npm run waitlist:import): when, which file (SHA-256), the consent the founder recorded, and the arrivals reserved for its rows with a sign-up time (arrival_base + rank).';

revoke all on table private.waitlist_imports from public, anon, authenticated, service_role;

create table private.waitlist_imported (
  -- Deferred: the chunk writes this row before the entry, so the entry's insert triggers find it.
  entry_id uuid primary key references public.waitlist (id) on delete cascade deferrable initially deferred,
  import_id uuid not null references private.waitlist_imports (id) on delete cascade,
  line integer not null check (line >= 1),
  arrival bigint unique,
  -- When its chunk was written: how a live run is told from a dead one (waitlist_import_active_at).
  written_at timestamptz not null default now(),
  -- A consented import's entry still pending: the commit confirms it.
  to_confirm boolean not null default false
);

comment on table private.waitlist_imported is
  'The entries an import wrote: the file''s line, the arrival reserved by the original sign-up time (null without one), when it was written, and whether the commit has still to confirm it (a consented import).';

create index waitlist_imported_import on private.waitlist_imported (import_id, written_at);

create index waitlist_imported_to_confirm on private.waitlist_imported (import_id, line) where to_confirm;

revoke all on table private.waitlist_imported from public, anon, authenticated, service_role;

-- Every spelling of one inbox finds it: "already on the list" for an import is an index lookup at a
-- million entries, not a pass over them.
create index waitlist_mailbox on public.waitlist (waitlist_rules.mailbox_key(email));

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
  return (select i.id from private.waitlist_imports i where i.id = named::uuid and i.committed_at is null and i.aborted_at is null);
end
$$;

revoke all on function private.waitlist_importing() from public, anon, authenticated, service_role;

-- What the list already says of each row: on the list (its mailbox, any spelling, or an earlier
-- line of the rows; an entry of an import not committed is not on the list) and at a
-- disposable-mail domain. One definition for the dry run and the write.
create function private.waitlist_import_verdicts(rows jsonb)
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
-- and every earlier import's, under one lock. Refused (55006) while another import is open: the
-- command takes a dead run's import out first (waitlist_import_abort with only_quiet) and waits
-- for a live one, so two imports never write at once.
create function public.waitlist_import_begin(import_id uuid, file_sha256 text, consent text, timed_rows integer)
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
