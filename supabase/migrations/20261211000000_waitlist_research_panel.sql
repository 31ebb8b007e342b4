-- Research tasks, the opt-in leaderboard and the share image's name (issue #69): the
-- declarations of supabase/schemas/19_tasks.sql and 20_leaderboard.sql, the answers' rules shared
-- with the sign-up (15_questions.sql), the entry's leaderboard columns (02_waitlist.sql), the
-- task.completed webhook (07_outbox.sql), a person's own data (08_own_data.sql) and the export's
-- tasks (13_founders.sql).

alter table public.waitlist
  add column board_name text,
  add column board_at timestamptz,
  add column board_hidden boolean not null default false,
  add constraint waitlist_board_opted_in check ((board_name is null) = (board_at is null));

comment on column public.waitlist.reward_places is
  'Places the rewards ladder''s ''places'' rungs (18_rewards.sql) and the research tasks (19_tasks.sql) earned, moving the entry up the line on top of its referral credits.';

comment on column public.waitlist.board_name is
  'The name the person chose to appear under on the leaderboard (their initials, or a nickname: 20_leaderboard.sql); null unless they opted in.';

comment on column public.waitlist.board_hidden is
  'A founder hid the entry from the leaderboard (the console); it stays opted in and off the board.';

alter table public.waitlist_outbox drop constraint waitlist_outbox_webhook;
alter table public.waitlist_outbox
  add constraint waitlist_outbox_webhook check (
    kind <> 'webhook'
    or coalesce(payload ->> 'type' in ('entry.confirmed', 'entry.invited', 'entry.joined', 'referral.credited', 'reward.earned', 'task.completed', 'entry.left')
                and jsonb_typeof(payload -> 'data') = 'object' and retry_until is not null, false)
  );

-- Words in a short answer, the rule a research task's short answer is held to (19_tasks.sql): a
-- word is a run of characters that are neither spaces nor ASCII punctuation, and each Chinese or
-- Japanese character (scripts written without spaces) is a word of its own. "ok ok ok" is three,
-- "!!! ???" none, "用户访谈" four. The form counts alike (sanity/questions/limits.ts wordCount;
-- tests/integration/research-panel-db.test.ts holds the two together).
create function private.waitlist_word_count(answer text)
returns integer
language sql
immutable
parallel safe
set search_path = ''
return (
  select pg_catalog.count(*)::integer
    from pg_catalog.regexp_matches(
      answer,
      '[\u3040-\u30ff\u3400-\u9fff\uf900-\ufaff]|[^ \t\n\r\f\v\u00a0\u1680\u2000-\u200a\u2028\u2029\u202f\u205f\u3000\u0021-\u002f\u003a-\u0040\u005b-\u0060\u007b-\u007e\u3040-\u30ff\u3400-\u9fff\uf900-\ufaff]+',
      'g'
    )
);

revoke all on function private.waitlist_word_count(text) from public, anon, authenticated, service_role;

-- Answers judged against a set of questions ([{key, kind, required, labels, options}], in order):
-- the sign-up's (the waitlist_answers trigger below, text_max 200, no fewest words) and a research
-- task's (19_tasks.sql: every question answered, text_max 500, min_words words), one set of rules.
-- Answers the stored form; raises WLA01 to WLA05 naming the question. `sign_up`: a required
-- question is one whose `required` is true, and a row of a list brought from another tool
-- (16_imports.sql), which was never asked, needs none: the import is looked for only then, off a
-- sign-up's way. Otherwise every question is required.
create function private.waitlist_judge_answers(questions jsonb, given_answers jsonb, language text, text_max integer, min_words integer, sign_up boolean)
returns jsonb
language plpgsql
stable
security definer
set search_path = ''
as $$
declare
  q jsonb;
  q_key text;
  q_kind text;
  q_required boolean;
  given jsonb;
  answer text;
  stored jsonb := '{}'::jsonb;
begin
  if given_answers is null then
    given_answers := '{}'::jsonb;
  end if;
  if pg_catalog.jsonb_typeof(given_answers) <> 'object' then
    raise exception 'answers must be an object of question keys and answers' using errcode = 'WLA02';
  end if;
  for q in select x from pg_catalog.jsonb_array_elements(questions) x loop
    q_key := q ->> 'key';
    q_kind := q ->> 'kind';
    q_required := case when sign_up then coalesce((q ->> 'required')::boolean, false) else true end;
    given := given_answers -> q_key;
    if given is not null and pg_catalog.jsonb_typeof(given) = 'null' then
      given := null;
    end if;
    if q_kind = 'text' then
      if given is not null and pg_catalog.jsonb_typeof(given) <> 'string' then
        raise exception 'the answer to "%" must be text', q_key using errcode = 'WLA02';
      end if;
      -- Blank (invisible characters alone) is unanswered, as in the form (validateAnswers).
      answer := waitlist_rules.clean_text(coalesce(given #>> '{}', ''));
      if answer = '' then
        if q_required and (not sign_up or private.waitlist_importing() is null) then
          raise exception 'an answer to "%" is required', q_key using errcode = 'WLA01';
        end if;
        continue;
      end if;
      if pg_catalog.char_length(answer) > text_max then
        raise exception 'the answer to "%" is over % characters', q_key, text_max using errcode = 'WLA03';
      end if;
      if not waitlist_rules.plain_text(answer) then
        raise exception 'the answer to "%" contains control or text-direction characters', q_key using errcode = 'WLA04';
      end if;
      if min_words > 0 and private.waitlist_word_count(answer) < min_words then
        raise exception 'the answer to "%" needs at least % words', q_key, min_words using errcode = 'WLA05';
      end if;
      stored := stored || pg_catalog.jsonb_build_object(
        q_key, pg_catalog.jsonb_build_object('question', private.waitlist_label(q -> 'labels', language), 'kind', q_kind, 'text', answer)
      );
      continue;
    end if;
    -- A choice: one option key, or (several choices) a list of them.
    if given is null or (pg_catalog.jsonb_typeof(given) = 'array' and pg_catalog.jsonb_array_length(given) = 0) then
      if q_required and (not sign_up or private.waitlist_importing() is null) then
        raise exception 'an answer to "%" is required', q_key using errcode = 'WLA01';
      end if;
      continue;
    end if;
    if pg_catalog.jsonb_typeof(given) = 'string' then
      given := pg_catalog.jsonb_build_array(given);
    elsif q_kind = 'one' or pg_catalog.jsonb_typeof(given) <> 'array' then
      raise exception 'the answer to "%" must be one of its options', q_key using errcode = 'WLA02';
    end if;
    if q_kind = 'one' and pg_catalog.jsonb_array_length(given) <> 1 then
      raise exception 'the answer to "%" must be one of its options', q_key using errcode = 'WLA02';
    end if;
    if exists (
      select 1
        from pg_catalog.jsonb_array_elements(given) g
       where pg_catalog.jsonb_typeof(g) <> 'string'
          or not exists (select 1 from pg_catalog.jsonb_array_elements(q -> 'options') o where o ->> 'key' = g #>> '{}')
    ) then
      raise exception 'an answer to "%" is not one of its options', q_key using errcode = 'WLA02';
    end if;
    -- Each option once, in the question's order.
    stored := stored || pg_catalog.jsonb_build_object(q_key, (
      select pg_catalog.jsonb_build_object(
               'question', private.waitlist_label(q -> 'labels', language),
               'kind', q_kind,
               'options', pg_catalog.jsonb_agg(o.value -> 'key' order by o.ordinality),
               'labels', pg_catalog.jsonb_agg(private.waitlist_label(o.value -> 'labels', language) order by o.ordinality)
             )
        from pg_catalog.jsonb_array_elements(q -> 'options') with ordinality o
       where given @> pg_catalog.jsonb_build_array(o.value -> 'key')
    ));
  end loop;
  return stored;
end
$$;

revoke all on function private.waitlist_judge_answers(jsonb, jsonb, text, integer, integer, boolean) from public, anon, authenticated, service_role;

create or replace function private.waitlist_answers()
returns trigger
language plpgsql
security definer
set search_path = ''
as $$
begin
  new.answers := private.waitlist_judge_answers(
    (select coalesce(pg_catalog.jsonb_agg(pg_catalog.jsonb_build_object('key', q.key, 'kind', q.kind, 'required', q.required, 'labels', q.labels, 'options', q.options)
                                          order by q.position), '[]'::jsonb)
       from private.waitlist_questions q),
    new.answers, new.language, 200, 0, true
  );
  return new;
end
$$;

revoke all on function private.waitlist_answers() from public, anon, authenticated, service_role;

-- One question as the Studio publishes it: {"key", "kind", "labels", "options": [{"key", "labels"}]}
-- with, when `asks_required` (the sign-up's questions), its "required" (a research task's are all
-- required: 19_tasks.sql). A choice has 2 to 12 options with distinct keys, a short answer none.
create function private.waitlist_question_valid(x jsonb, asks_required boolean)
returns boolean
language sql
immutable
set search_path = ''
return coalesce(
  pg_catalog.jsonb_typeof(x) = 'object'
  and pg_catalog.jsonb_typeof(x -> 'key') = 'string'
  and (x ->> 'key') ~ '^[a-z][a-z0-9-]{0,39}$'
  and (x ->> 'kind') in ('one', 'many', 'text')
  and (not asks_required or pg_catalog.jsonb_typeof(x -> 'required') = 'boolean')
  and private.waitlist_labels_valid(x -> 'labels', 160)
  and pg_catalog.jsonb_typeof(x -> 'options') = 'array'
  and case when x ->> 'kind' = 'text' then pg_catalog.jsonb_array_length(x -> 'options') = 0
           else pg_catalog.jsonb_array_length(x -> 'options') between 2 and 12 end
  and not exists (
    select 1
      from pg_catalog.jsonb_array_elements(x -> 'options') o
     where pg_catalog.jsonb_typeof(o) <> 'object'
        or pg_catalog.jsonb_typeof(o -> 'key') is distinct from 'string'
        or (o ->> 'key') !~ '^[a-z0-9][a-z0-9-]{0,39}$'
        or not private.waitlist_labels_valid(o -> 'labels', 80)
  )
  and (select pg_catalog.count(distinct o ->> 'key') from pg_catalog.jsonb_array_elements(x -> 'options') o) = pg_catalog.jsonb_array_length(x -> 'options'),
  false
);

revoke all on function private.waitlist_question_valid(jsonb, boolean) from public, anon, authenticated, service_role;

-- The server's sync: questions = [{"key", "kind", "required", "labels": {"en": …}, "options":
-- [{"key", "labels"}]}, …] in the page's order, every published question (an empty array when the
-- page asks none). Refuses a malformed set as a whole; the caller keeps the last good set.
create or replace function public.waitlist_replace_questions(questions jsonb)
returns integer
language plpgsql
volatile
security definer
set search_path = ''
as $$
declare
  stored integer;
begin
  if questions is null or pg_catalog.jsonb_typeof(questions) <> 'array' or pg_catalog.jsonb_array_length(questions) > 5 then
    raise exception 'questions must be an array of at most 5' using errcode = '22023';
  end if;
  if exists (
    select 1 from pg_catalog.jsonb_array_elements(questions) x where not private.waitlist_question_valid(x, true)
  ) or (select pg_catalog.count(distinct x ->> 'key') from pg_catalog.jsonb_array_elements(questions) x) <> pg_catalog.jsonb_array_length(questions) then
    raise exception 'each question needs a unique key, a kind (one, many, text), required, labels with English, and for a choice 2 to 12 options with unique keys'
      using errcode = '22023';
  end if;
  -- Two publishes at once: the later replacement wins whole, never a mix of both.
  lock table private.waitlist_questions in exclusive mode;
  delete from private.waitlist_questions;
  insert into private.waitlist_questions (key, position, kind, required, labels, options)
  select x ->> 'key', n, x ->> 'kind', (x ->> 'required')::boolean, x -> 'labels',
         coalesce((select pg_catalog.jsonb_agg(pg_catalog.jsonb_build_object('key', o -> 'key', 'labels', o -> 'labels') order by i)
                     from pg_catalog.jsonb_array_elements(x -> 'options') with ordinality oi (o, i)), '[]'::jsonb)
    from pg_catalog.jsonb_array_elements(questions) with ordinality q (x, n);
  get diagnostics stored = row_count;
  return stored;
end
$$;


-- Research tasks (issue #69): a confirmed person answers a short task the marketers wrote and moves
-- up the line by its places, once per task; the founders read the answers as their research panel.
--
-- Guarantees:
--   * The tasks (private.waitlist_tasks) are Sanity's, copied on publish by
--     public.waitlist_replace_tasks and replaced as a whole: up to 5, each with a key, its title and
--     1 to 5 questions in every language, and its places (1 to 1,000).
--   * public.waitlist_complete_task(token, task, answers) is the one way to answer: the holder of an
--     e-mailed link (the public key calls it from their own page), confirmed and in line (an invited
--     or joined person answers nothing more), a task published now. The answers are judged by the
--     sign-up's rules (private.waitlist_judge_answers, 15_questions.sql): every question answered,
--     only its options, a short answer of plain text, at most 500 characters and at least 3 words
--     (private.waitlist_word_count), WLA01 to WLA05 naming the question. Stored with the words the
--     person saw, as a sign-up's answers are.
--   * Once per task, ever (primary key (entry, task)): a second try, also two at once (the entry's
--     row is locked first, so they run one after the other), a try after a founder revoked it,
--     changes nothing and answers 'done'.
--   * Places: the task's, added to public.waitlist.reward_places as a rung's are (18_rewards.sql),
--     so they count in the line's key (05_line.sql) only while the entry is in line. All tasks
--     together give at most private.waitlist_task_settings.places_cap (50 by default, so tasks
--     cannot outweigh referrals): a task past the cap is still recorded, with the places it could
--     still give (0 at the cap).
--   * A founder revokes a junk answer (public.waitlist_revoke_task, the console's Revoke): once,
--     its places taken back in the same transaction; a second revoke, or two at once, changes
--     nothing.
--   * Messages in the same transaction: a 'task.completed' webhook (07_outbox_webhooks.sql) with
--     the task, its places and the answers.
--   * The founders' reads: answer counts per task, question and option, and the newest short
--     answers (an index range), never anyone's address to the public key. Rate limited per network
--     like the rest of a person's own data; erasure deletes the answers with the entry (on delete
--     cascade); waitlist_export_me (08_own_data.sql) shows them.
--
-- TypeScript twins: sanity/tasks/rules.ts (the tasks' shape and limits, also in the checks below),
-- components/waitlist/research-tasks.tsx (the own page's side), tools/owner/tasks.ts (the
-- console's reads and Revoke), components/waitlist/outbox/webhook.ts (task.completed).

create table private.waitlist_task_settings (
  singleton boolean primary key default true check (singleton),
  places_cap integer not null default 50 check (places_cap between 0 and 100000)
);

comment on table private.waitlist_task_settings is
  'Research tasks'' settings (one row): places_cap, the most places all tasks together give one person. Change it with an update in a migration (10_settings.sql).';

revoke all on table private.waitlist_task_settings from public, anon, authenticated, service_role;

-- Its row here rather than in 10_settings.sql, which runs before this file declares the table.
insert into private.waitlist_task_settings (singleton, places_cap) values
  ('true', '50');

create table private.waitlist_tasks (
  key text primary key check (key ~ '^[a-z][a-z0-9-]{0,39}$'),
  position integer not null unique check (position between 1 and 5),
  places integer not null check (places between 1 and 1000),
  -- {"en": "How your team learns from users", "de": "…"}
  titles jsonb not null check (jsonb_typeof(titles) = 'object' and titles ? 'en'),
  -- [{"key", "kind", "labels", "options": [{"key", "labels"}]}], as private.waitlist_judge_answers reads them.
  questions jsonb not null check (jsonb_typeof(questions) = 'array' and jsonb_array_length(questions) between 1 and 5)
);

comment on table private.waitlist_tasks is
  'The research tasks as published in Sanity (at most 5, in order); replaced as a whole by public.waitlist_replace_tasks.';

revoke all on table private.waitlist_tasks from public, anon, authenticated, service_role;

create table private.waitlist_task_answers (
  entry_id uuid not null references public.waitlist (id) on delete cascade,
  task text not null,
  -- The task's title as the person saw it.
  title text not null,
  answers jsonb not null check (jsonb_typeof(answers) = 'object'),
  places integer not null check (places >= 0),
  completed_at timestamptz not null default now(),
  revoked_at timestamptz,

  primary key (entry_id, task)
);

comment on table private.waitlist_task_answers is
  'One row per task a person answered (once, ever): the answers with the words they saw, the places it gave (within the cap), and when a founder revoked it.';

-- The console's newest short answers, and each task's counts: index ranges, never the list.
create index waitlist_task_answers_recent on private.waitlist_task_answers (completed_at desc);
create index waitlist_task_answers_task on private.waitlist_task_answers (task) where revoked_at is null;

revoke all on table private.waitlist_task_answers from public, anon, authenticated, service_role;

-- The server's sync: tasks = [{"key", "places", "titles": {"en": …}, "questions": [{"key", "kind",
-- "labels", "options": [{"key", "labels"}]}]}, …] in the page's order (an empty array when none is
-- published). Refuses a malformed set as a whole; the caller keeps the last good set. A task
-- removed keeps its answers (and the places they gave).
create function public.waitlist_replace_tasks(tasks jsonb)
returns integer
language plpgsql
volatile
security definer
set search_path = ''
as $$
declare
  stored integer;
begin
  if tasks is null or pg_catalog.jsonb_typeof(tasks) <> 'array' or pg_catalog.jsonb_array_length(tasks) > 5 then
    raise exception 'tasks must be an array of at most 5' using errcode = '22023';
  end if;
  if exists (
    select 1
      from pg_catalog.jsonb_array_elements(tasks) t
     where pg_catalog.jsonb_typeof(t) <> 'object'
        or pg_catalog.jsonb_typeof(t -> 'key') is distinct from 'string'
        or (t ->> 'key') !~ '^[a-z][a-z0-9-]{0,39}$'
        or pg_catalog.jsonb_typeof(t -> 'places') is distinct from 'number'
        or case when (t ->> 'places') ~ '^[0-9]{1,4}$' then (t ->> 'places')::integer not between 1 and 1000 else true end
        or not private.waitlist_labels_valid(t -> 'titles', 80)
        or pg_catalog.jsonb_typeof(t -> 'questions') is distinct from 'array'
        or pg_catalog.jsonb_array_length(t -> 'questions') not between 1 and 5
        -- The sign-up's rules for a question, without its "required" (15_questions.sql).
        or exists (select 1 from pg_catalog.jsonb_array_elements(t -> 'questions') x where not private.waitlist_question_valid(x, false))
        or (select pg_catalog.count(distinct x ->> 'key') from pg_catalog.jsonb_array_elements(t -> 'questions') x)
           <> pg_catalog.jsonb_array_length(t -> 'questions')
  ) or (select pg_catalog.count(distinct t ->> 'key') from pg_catalog.jsonb_array_elements(tasks) t) <> pg_catalog.jsonb_array_length(tasks) then
    raise exception 'each task needs a unique key, 1 to 1000 places, titles with English, and 1 to 5 questions with unique keys (a choice with 2 to 12 options)'
      using errcode = '22023';
  end if;
  -- Two publishes at once: the later replacement wins whole, never a mix of both.
  lock table private.waitlist_tasks in exclusive mode;
  delete from private.waitlist_tasks;
  insert into private.waitlist_tasks (key, position, places, titles, questions)
  select t ->> 'key', n, (t ->> 'places')::integer, t -> 'titles',
         (select pg_catalog.jsonb_agg(pg_catalog.jsonb_build_object(
                   'key', x -> 'key', 'kind', x -> 'kind', 'labels', x -> 'labels',
                   'options', coalesce((select pg_catalog.jsonb_agg(pg_catalog.jsonb_build_object('key', o -> 'key', 'labels', o -> 'labels') order by i)
                                          from pg_catalog.jsonb_array_elements(x -> 'options') with ordinality oi (o, i)), '[]'::jsonb)
                 ) order by j)
            from pg_catalog.jsonb_array_elements(t -> 'questions') with ordinality qx (x, j))
    from pg_catalog.jsonb_array_elements(tasks) with ordinality tt (t, n);
  get diagnostics stored = row_count;
  return stored;
end
$$;

comment on function public.waitlist_replace_tasks(jsonb) is
  'Replaces the published research tasks (in order); returns how many are stored. service_role only: the site''s server calls it after each Sanity publish.';

revoke all on function public.waitlist_replace_tasks(jsonb) from public, anon, authenticated, service_role;
grant execute on function public.waitlist_replace_tasks(jsonb) to service_role;

-- The published tasks, for the owner's commands (the export's columns, the console's words).
create function public.waitlist_tasks()
returns table (key text, places integer, titles jsonb, questions jsonb)
language sql
stable
security definer
set search_path = ''
as $$
  select t.key, t.places, t.titles, t.questions from private.waitlist_tasks t order by t.position
$$;

comment on function public.waitlist_tasks() is
  'The research tasks published now, in order, with their words. service_role only.';

revoke all on function public.waitlist_tasks() from public, anon, authenticated, service_role;
grant execute on function public.waitlist_tasks() to service_role;

-- What the own page shows of a person's tasks (08_own_data.sql): each answered task's key and
-- whether it still counts, and the places all of them gave against the cap. A primary-key range.
create function private.waitlist_own_tasks(entry uuid)
returns jsonb
language plpgsql
stable
security definer
set search_path = ''
as $$
begin
  return pg_catalog.jsonb_build_object(
    'done', (
      select coalesce(pg_catalog.jsonb_agg(pg_catalog.jsonb_build_object(
               'task', a.task, 'places', a.places, 'status', case when a.revoked_at is null then 'completed' else 'revoked' end
             ) order by a.completed_at, a.task), '[]'::jsonb)
        from private.waitlist_task_answers a
       where a.entry_id = waitlist_own_tasks.entry
    ),
    'places', (
      select coalesce(sum(a.places), 0)::integer from private.waitlist_task_answers a
       where a.entry_id = waitlist_own_tasks.entry and a.revoked_at is null
    ),
    'cap', (select s.places_cap from private.waitlist_task_settings s)
  );
end
$$;

revoke all on function private.waitlist_own_tasks(uuid) from public, anon, authenticated, service_role;

-- A person answers a task from their own page. Answers {"status": "completed", "places", "place"},
-- {"status": "done"} (answered before, or revoked), {"status": "closed"} (not in line: pending,
-- invited or joined), {"status": "unknown"} (no such task published now), or null for a token that
-- opens nothing (as waitlist_me). Answers that break a rule raise WLA01 to WLA05 (HTTP 400).
create function public.waitlist_complete_task(token text, task text, answers jsonb)
returns jsonb
language plpgsql
volatile
security definer
set search_path = ''
as $$
declare
  -- The person's row locked first: two answers at once (the same task, or two tasks against the
  -- cap) are counted one after the other.
  person public.waitlist := private.waitlist_entry_for_token(token, true);
  chosen private.waitlist_tasks;
  stored jsonb;
  earned integer;
  granted integer;
begin
  if person.id is null then
    return null;
  end if;
  if exists (select 1 from private.waitlist_task_answers a where a.entry_id = person.id and a.task = waitlist_complete_task.task) then
    return pg_catalog.jsonb_build_object('status', 'done');
  end if;
  if person.status <> 'confirmed' then
    return pg_catalog.jsonb_build_object('status', 'closed');
  end if;
  select * into chosen from private.waitlist_tasks t where t.key = waitlist_complete_task.task;
  if not found then
    return pg_catalog.jsonb_build_object('status', 'unknown');
  end if;
  stored := private.waitlist_judge_answers(chosen.questions, answers, person.language, 500, 3, false);
  select coalesce(sum(a.places), 0) into earned from private.waitlist_task_answers a where a.entry_id = person.id and a.revoked_at is null;
  granted := greatest(0, least(chosen.places, (select s.places_cap from private.waitlist_task_settings s) - earned));
  insert into private.waitlist_task_answers (entry_id, task, title, answers, places)
  values (person.id, chosen.key, private.waitlist_label(chosen.titles, person.language), stored, granted);
  if granted > 0 then
    update public.waitlist w set reward_places = w.reward_places + granted where w.id = person.id;
  end if;
  perform private.waitlist_enqueue_webhook('task.completed', person.id, pg_catalog.jsonb_build_object('task', chosen.key, 'places', granted, 'answers', stored));
  return pg_catalog.jsonb_build_object('status', 'completed', 'places', granted, 'place', private.waitlist_place(person.id));
end
$$;

comment on function public.waitlist_complete_task(text, text, jsonb) is
  'The token holder answers a research task, once: {status: completed, places, place} | {status: done | closed | unknown}; null for any other token. Answers are judged as at sign-up (WLA01-WLA05). Rate limited per network.';

revoke all on function public.waitlist_complete_task(text, text, jsonb) from public, anon, authenticated, service_role;
grant execute on function public.waitlist_complete_task(text, text, jsonb) to anon, service_role;

-- A founder takes a junk answer back (the console's Revoke): once, its places with it. Answers
-- {entry, task, places, changed}; changed false when it was already revoked (also when two arrive
-- at once: the second waits for the first's row lock, then finds it revoked); null when the person
-- never answered the task.
create function public.waitlist_revoke_task(entry uuid, task text)
returns jsonb
language plpgsql
volatile
security definer
set search_path = ''
as $$
declare
  revoked private.waitlist_task_answers;
begin
  -- The person's row first, as an answer takes it: a revoke and an answer never wait crosswise.
  perform 1 from public.waitlist w where w.id = waitlist_revoke_task.entry for update;
  update private.waitlist_task_answers a set revoked_at = pg_catalog.now()
   where a.entry_id = waitlist_revoke_task.entry and a.task = waitlist_revoke_task.task and a.revoked_at is null
  returning * into revoked;
  if found then
    if revoked.places > 0 then
      update public.waitlist w set reward_places = greatest(0, w.reward_places - revoked.places) where w.id = revoked.entry_id;
    end if;
    return pg_catalog.jsonb_build_object('entry', revoked.entry_id, 'task', revoked.task, 'places', revoked.places, 'changed', true);
  end if;
  select * into revoked from private.waitlist_task_answers a where a.entry_id = waitlist_revoke_task.entry and a.task = waitlist_revoke_task.task;
  if not found then
    return null;
  end if;
  return pg_catalog.jsonb_build_object('entry', revoked.entry_id, 'task', revoked.task, 'places', revoked.places, 'changed', false);
end
$$;

comment on function public.waitlist_revoke_task(uuid, text) is
  'For the owner''s commands (service role): revokes entry `entry`''s answer to task `task`, once, taking its places back; {entry, task, places, changed}; null when it was never answered.';

revoke all on function public.waitlist_revoke_task(uuid, text) from public, anon, authenticated, service_role;
grant execute on function public.waitlist_revoke_task(uuid, text) to service_role;

-- The founders' counts: per task, question and option, how many answers that still count chose it
-- (a short answer counts with option null); then per task (question null) how many answered it.
-- One read of each task's answers (the partial index), never of the list.
create function public.waitlist_task_counts()
returns table (task text, question text, option text, answers integer)
language sql
stable
security definer
set search_path = ''
set jit = off
as $$
  select a.task, q.key, o.option, pg_catalog.count(*)::integer
    from private.waitlist_task_answers a
   cross join lateral pg_catalog.jsonb_each(a.answers) q
   cross join lateral pg_catalog.jsonb_array_elements_text(coalesce(q.value -> 'options', '[null]'::jsonb)) o (option)
   where a.revoked_at is null
   group by 1, 2, 3
   union all
  select a.task, null, null, pg_catalog.count(*)::integer
    from private.waitlist_task_answers a
   where a.revoked_at is null
   group by 1
   order by 1, 2 nulls first, 3
$$;

comment on function public.waitlist_task_counts() is
  'Per research task, question and option, how many answers that count chose it (a short answer: option null); per task (question null) how many answered. service_role only.';

revoke all on function public.waitlist_task_counts() from public, anon, authenticated, service_role;
grant execute on function public.waitlist_task_counts() to service_role;

-- The newest answers with a short answer in them, for the console's reading and its Revoke: the
-- person (id, e-mail), the task, its short answers and whether it was revoked. An index range from
-- the newest.
create function public.waitlist_task_recent(max_rows integer default 20)
returns table (entry_id uuid, email text, task text, title text, texts jsonb, places integer, completed_at timestamptz, revoked_at timestamptz)
language sql
stable
security definer
set search_path = ''
as $$
  select a.entry_id, w.email, a.task, a.title,
         (select pg_catalog.jsonb_agg(pg_catalog.jsonb_build_object('question', q.value ->> 'question', 'text', q.value ->> 'text'))
            from pg_catalog.jsonb_each(a.answers) q where q.value ->> 'kind' = 'text'),
         a.places, a.completed_at, a.revoked_at
    from private.waitlist_task_answers a
    join public.waitlist w on w.id = a.entry_id
   order by a.completed_at desc
   limit least(greatest(coalesce(max_rows, 20), 1), 200)
$$;

comment on function public.waitlist_task_recent(integer) is
  'The newest research-task answers (at most 200), with the person''s e-mail and the short answers, for the founders'' console and its Revoke. service_role only.';

revoke all on function public.waitlist_task_recent(integer) from public, anon, authenticated, service_role;
grant execute on function public.waitlist_task_recent(integer) to service_role;

-- One answered task as the person's own data and the founders' export show it (tools/owner/csv.ts).
create function private.waitlist_task_answer_json(a private.waitlist_task_answers)
returns jsonb
language sql
immutable
set search_path = ''
return pg_catalog.jsonb_build_object('title', a.title, 'answers', a.answers, 'places', a.places, 'completed_at', a.completed_at, 'revoked_at', a.revoked_at);

revoke all on function private.waitlist_task_answer_json(private.waitlist_task_answers) from public, anon, authenticated, service_role;

-- A person's answered tasks, by key (waitlist_export_me, 08_own_data.sql): a primary-key range.
create function private.waitlist_own_task_answers(entry uuid)
returns jsonb
language sql
stable
security definer
set search_path = ''
as $$
  select coalesce(pg_catalog.jsonb_object_agg(a.task, private.waitlist_task_answer_json(a)), '{}'::jsonb)
    from private.waitlist_task_answers a
   where a.entry_id = waitlist_own_task_answers.entry
$$;

revoke all on function private.waitlist_own_task_answers(uuid) from public, anon, authenticated, service_role;

-- The opt-in leaderboard (issue #69): the top 20 by counted referrals, of those who asked to be on
-- it, under the name they chose.
--
-- Guarantees:
--   * Nobody is on the board unless they opted in from their own page
--     (public.waitlist_leaderboard_me, the holder of an e-mailed link): public.waitlist.board_name
--     is null until then, and null again when they opt out; leaving the list deletes the row.
--   * The name shown is the person's choice: their initials (from the name they signed up with:
--     "Ada Lovelace" is "A. L.") by default, or a nickname of 2 to 24 characters that follows the
--     plain-text rule (waitlist_rules.clean_text and plain_text, 01_rules.sql), holds none of
--     < > @ or an address ("://", "www."), and none of the founders' blocked words
--     (private.waitlist_board_blocklist, compared without case, compatibility forms or punctuation:
--     private.waitlist_board_fold). Otherwise WLB01 (HTTP 400) names the rule. Never an e-mail.
--   * The board is read by the site's server when the static page is refreshed
--     (public.waitlist_leaderboard, the service role's): an index range of the opted-in (the partial
--     index waitlist_leaderboard), never a sort of the list. A founder hides an entry
--     (public.waitlist_leaderboard_hide): off the board at the next refresh, still opted in.
--   * A person's rank among the opted-in and visible is counted from the same index.
--   * The public key reads none of it but the holder's own choice and rank; the share image
--     (public.waitlist_share_name) names only someone opted in and not hidden.
--
-- TypeScript twins: components/waitlist/leaderboard-choice.tsx (the own page's side),
-- components/waitlist/leaderboard.ts (the page's read), tools/owner/tasks.ts (the
-- founders').

create table private.waitlist_board_blocklist (
  word text primary key check (word ~ '^[a-z0-9]{2,40}$')
);

comment on table private.waitlist_board_blocklist is
  'Words the founders refuse in a leaderboard nickname, folded (private.waitlist_board_fold): a nickname containing one is refused. Kept with `npm run waitlist:leaderboard -- block <word>`.';

revoke all on table private.waitlist_board_blocklist from public, anon, authenticated, service_role;

-- The first words no nickname may hold: the product's name and words that pass for its team.
insert into private.waitlist_board_blocklist (word) values
  ('admin'),
  ('heardly'),
  ('moderator'),
  ('official'),
  ('support');

-- The ones who opted in and are not hidden, by counted referrals, the earlier opt-in first.
create index waitlist_leaderboard on public.waitlist (referral_credits desc, board_at, id) where board_name is not null;

-- A nickname as the blocklist compares it: NFKC (fullwidth and compatibility forms to plain ones),
-- lower case, letters and digits only, so "A.d-M I n" is "admin".
create function private.waitlist_board_fold(name text)
returns text
language sql
immutable
parallel safe
set search_path = ''
return pg_catalog.regexp_replace(pg_catalog.lower(pg_catalog.normalize(name, 'NFKC')), '[^a-z0-9\u00c0-\uffff]', '', 'g');

revoke all on function private.waitlist_board_fold(text) from public, anon, authenticated, service_role;

-- "Ada Lovelace" -> "A. L."; one word -> "A."; the first character of the first and last word.
create function private.waitlist_initials(name text)
returns text
language sql
immutable
parallel safe
set search_path = ''
return (
  select case
           when pg_catalog.cardinality(w) = 0 then '?'
           when pg_catalog.cardinality(w) = 1 then pg_catalog.upper(pg_catalog.left(w[1], 1)) || '.'
           else pg_catalog.upper(pg_catalog.left(w[1], 1)) || '. ' || pg_catalog.upper(pg_catalog.left(w[pg_catalog.cardinality(w)], 1)) || '.'
         end
    from (select pg_catalog.array_remove(pg_catalog.regexp_split_to_array(waitlist_rules.clean_text(name), '\s+'), '') as w) s
);

revoke all on function private.waitlist_initials(text) from public, anon, authenticated, service_role;

-- The nickname as stored, or WLB01 naming the rule it breaks.
create function private.waitlist_board_nickname(nickname text)
returns text
language plpgsql
stable
security definer
set search_path = ''
as $$
declare
  cleaned text := waitlist_rules.clean_text(coalesce(nickname, ''));
  folded text;
begin
  if pg_catalog.char_length(cleaned) not between 2 and 24 then
    raise exception 'a nickname is 2 to 24 characters' using errcode = 'WLB01';
  end if;
  if not waitlist_rules.plain_text(cleaned) then
    raise exception 'a nickname may not contain control or text-direction characters' using errcode = 'WLB01';
  end if;
  if cleaned ~ '[<>@]' or pg_catalog.strpos(pg_catalog.lower(cleaned), '://') > 0 or pg_catalog.strpos(pg_catalog.lower(cleaned), 'www.') > 0 then
    raise exception 'a nickname may not contain <, >, @ or an address' using errcode = 'WLB01';
  end if;
  folded := private.waitlist_board_fold(cleaned);
  if exists (select 1 from private.waitlist_board_blocklist b where pg_catalog.strpos(folded, b.word) > 0) then
    raise exception 'that nickname is not allowed on the leaderboard' using errcode = 'WLB01';
  end if;
  return cleaned;
end
$$;

revoke all on function private.waitlist_board_nickname(text) from public, anon, authenticated, service_role;

-- A person's rank among those on the board (opted in, not hidden): 1 + those with more counted
-- referrals, + those with as many who opted in earlier. Two index ranges.
create function private.waitlist_board_rank(person public.waitlist)
returns bigint
language plpgsql
stable
security definer
set search_path = ''
as $$
begin
  if person.board_name is null or person.board_hidden then
    return null;
  end if;
  return 1
    + (select pg_catalog.count(*) from public.waitlist w
        where w.board_name is not null and not w.board_hidden and w.referral_credits > person.referral_credits)
    + (select pg_catalog.count(*) from public.waitlist w
        where w.board_name is not null and not w.board_hidden and w.referral_credits = person.referral_credits
          and (w.board_at, w.id) < (person.board_at, person.id));
end
$$;

revoke all on function private.waitlist_board_rank(public.waitlist) from public, anon, authenticated, service_role;

-- What the own page shows of the board (waitlist_me, 08_own_data.sql, and the choice below).
create function private.waitlist_board_state(person public.waitlist)
returns jsonb
language plpgsql
stable
security definer
set search_path = ''
as $$
begin
  return pg_catalog.jsonb_build_object(
    'on_board', person.board_name is not null,
    'name', person.board_name,
    'initials', private.waitlist_initials(person.name),
    'hidden', person.board_hidden,
    'rank', private.waitlist_board_rank(person)
  );
end
$$;

revoke all on function private.waitlist_board_state(public.waitlist) from public, anon, authenticated, service_role;

-- The holder's choice, from their own page: choice null reads it, 'join' opts in (under `nickname`,
-- or their initials when it is null or blank), 'leave' opts out. Answers {"on_board", "name",
-- "initials", "rank", "hidden"}; null for a token that opens nothing or an entry not yet confirmed.
-- Rate limited per network.
create function public.waitlist_leaderboard_me(token text, choice text default null, nickname text default null)
returns jsonb
language plpgsql
volatile
security definer
set search_path = ''
as $$
declare
  held public.waitlist;
  person public.waitlist;
begin
  if choice is not null and choice not in ('join', 'leave') then
    raise exception 'choice is join, leave or null' using errcode = '22023';
  end if;
  held := private.waitlist_entry_for_token(token);
  if held.id is null or held.status = 'pending' then
    return null;
  end if;
  if choice = 'join' then
    update public.waitlist w
       set board_name = case when public.waitlist_trim(coalesce(nickname, '')) = '' then private.waitlist_initials(w.name)
                             else private.waitlist_board_nickname(nickname) end,
           board_at = coalesce(w.board_at, pg_catalog.now())
     where w.id = held.id
    returning * into person;
  elsif choice = 'leave' then
    update public.waitlist w set board_name = null, board_at = null where w.id = held.id
    returning * into person;
  else
    person := held;
  end if;
  return private.waitlist_board_state(person);
end
$$;

comment on function public.waitlist_leaderboard_me(text, text, text) is
  'The token holder''s leaderboard choice: read (choice null), join (under a nickname, or their initials), leave; {on_board, name, initials, hidden, rank}; null for any other token or a pending entry. A nickname that breaks the rule raises WLB01. Rate limited per network.';

revoke all on function public.waitlist_leaderboard_me(text, text, text) from public, anon, authenticated, service_role;
grant execute on function public.waitlist_leaderboard_me(text, text, text) to anon, service_role;

-- The board, for the static page's refresh (the site's server): the top max_rows (at most 100) of
-- those opted in and not hidden, by counted referrals, the earlier opt-in first. Names and counts
-- only: never an address or an id. An index range.
create function public.waitlist_leaderboard(max_rows integer default 20)
returns table (rank integer, name text, referrals integer)
language sql
stable
security definer
set search_path = ''
as $$
  select (pg_catalog.row_number() over (order by b.referral_credits desc, b.board_at, b.id))::integer, b.board_name, b.referral_credits
    from (select w.referral_credits, w.board_at, w.id, w.board_name
            from public.waitlist w
           where w.board_name is not null and not w.board_hidden
           order by w.referral_credits desc, w.board_at, w.id
           limit least(greatest(coalesce(max_rows, 20), 1), 100)) b
   order by 1
$$;

comment on function public.waitlist_leaderboard(integer) is
  'The leaderboard: the top max_rows (1 to 100, default 20) who opted in and are not hidden, as {rank, name, referrals}. service_role only: the site''s server reads it when the page is refreshed.';

revoke all on function public.waitlist_leaderboard(integer) from public, anon, authenticated, service_role;
grant execute on function public.waitlist_leaderboard(integer) to service_role;

-- The founders' view (the console): the top max_rows opted in, hidden ones included and marked,
-- with who they are, so a founder can hide or show each.
create function public.waitlist_leaderboard_entries(max_rows integer default 40)
returns table (entry_id uuid, email text, name text, board_name text, referrals integer, hidden boolean, board_at timestamptz)
language sql
stable
security definer
set search_path = ''
as $$
  select w.id, w.email, w.name, w.board_name, w.referral_credits, w.board_hidden, w.board_at
    from public.waitlist w
   where w.board_name is not null
   order by w.referral_credits desc, w.board_at, w.id
   limit least(greatest(coalesce(max_rows, 40), 1), 200)
$$;

comment on function public.waitlist_leaderboard_entries(integer) is
  'The opted-in entries at the top of the leaderboard, hidden ones included, with their e-mail, for the founders'' console. service_role only.';

revoke all on function public.waitlist_leaderboard_entries(integer) from public, anon, authenticated, service_role;
grant execute on function public.waitlist_leaderboard_entries(integer) to service_role;

-- A founder hides (true) or shows again (false) an entry on the board. Answers {entry, hidden,
-- changed}; null for an entry that is not opted in.
create function public.waitlist_leaderboard_hide(entry uuid, hide boolean)
returns jsonb
language plpgsql
volatile
security definer
set search_path = ''
as $$
declare
  person public.waitlist;
begin
  if hide is null then
    raise exception 'hide must be true or false' using errcode = '22004';
  end if;
  update public.waitlist w set board_hidden = hide
   where w.id = waitlist_leaderboard_hide.entry and w.board_name is not null and w.board_hidden is distinct from hide
  returning * into person;
  if found then
    return pg_catalog.jsonb_build_object('entry', person.id, 'hidden', person.board_hidden, 'changed', true);
  end if;
  select * into person from public.waitlist w where w.id = waitlist_leaderboard_hide.entry and w.board_name is not null;
  if not found then
    return null;
  end if;
  return pg_catalog.jsonb_build_object('entry', person.id, 'hidden', person.board_hidden, 'changed', false);
end
$$;

comment on function public.waitlist_leaderboard_hide(uuid, boolean) is
  'For the owner''s commands (service role): hides (true) or shows (false) an opted-in entry on the leaderboard; {entry, hidden, changed}; null when the entry is not opted in.';

revoke all on function public.waitlist_leaderboard_hide(uuid, boolean) from public, anon, authenticated, service_role;
grant execute on function public.waitlist_leaderboard_hide(uuid, boolean) to service_role;

-- The founders' blocklist: adds and removes words (folded), answers the list after.
create function public.waitlist_leaderboard_blocklist(add_words text[] default '{}', remove_words text[] default '{}')
returns text[]
language plpgsql
volatile
security definer
set search_path = ''
as $$
begin
  if exists (select 1 from pg_catalog.unnest(coalesce(add_words, '{}')) a where private.waitlist_board_fold(a) !~ '^[a-z0-9]{2,40}$') then
    raise exception 'a blocked word is 2 to 40 letters or digits' using errcode = '22023';
  end if;
  delete from private.waitlist_board_blocklist b where b.word in (select private.waitlist_board_fold(r) from pg_catalog.unnest(coalesce(remove_words, '{}')) r);
  insert into private.waitlist_board_blocklist (word)
  select distinct private.waitlist_board_fold(a) from pg_catalog.unnest(coalesce(add_words, '{}')) a
  on conflict do nothing;
  return array(select b.word from private.waitlist_board_blocklist b order by b.word);
end
$$;

comment on function public.waitlist_leaderboard_blocklist(text[], text[]) is
  'For the owner''s commands (service role): adds and removes words of the leaderboard''s nickname blocklist; answers the list.';

revoke all on function public.waitlist_leaderboard_blocklist(text[], text[]) from public, anon, authenticated, service_role;
grant execute on function public.waitlist_leaderboard_blocklist(text[], text[]) to service_role;

-- The share image's name (/og/…/waitlist?ref=): the board name of the code's holder when they are
-- on the board (opted in, not hidden), else null, so an image names nobody who did not opt in.
create function public.waitlist_share_name(code text)
returns text
language sql
stable
security definer
set search_path = ''
as $$
  select w.board_name from public.waitlist w
   where w.referral_code = waitlist_share_name.code and w.board_name is not null and not w.board_hidden
$$;

comment on function public.waitlist_share_name(text) is
  'The leaderboard name of the referral code''s holder when they opted in and are not hidden, else null: what a share image may name. service_role only.';

revoke all on function public.waitlist_share_name(text) from public, anon, authenticated, service_role;
grant execute on function public.waitlist_share_name(text) to service_role;

-- The holder's own page: place, credits, referral code, and for an invited or joined person their
-- invitation, or that they joined; for each of them the rewards granted or held (a refused one is
-- the founders' business, not a promise the page keeps showing).
create or replace function public.waitlist_me(token text)
returns jsonb
language plpgsql
volatile
security definer
set search_path = ''
as $$
declare
  held record;
  invitation private.waitlist_invitations;
begin
  perform private.waitlist_limit_network(
    'own_data', (select s.own_data_per_client from private.waitlist_referral_settings s), (select s.window_seconds from private.waitlist_confirmation_settings s),
    'Too many attempts from this network. Please wait a few minutes and try again.', 'calls'
  );
  select * into held from private.waitlist_token_entry(token, false);
  if (held.entry).id is null then
    return null;
  end if;
  if held.expired then
    return pg_catalog.jsonb_build_object('status', 'expired');
  end if;
  if (held.entry).status = 'pending' then
    return pg_catalog.jsonb_build_object('status', 'pending', 'confirm_by', (held.entry).confirm_by);
  end if;
  if (held.entry).status = 'invited' then
    select * into invitation from private.waitlist_invitations i where i.entry_id = (held.entry).id and i.redeemed_at is null and i.expired_at is null;
    return pg_catalog.jsonb_build_object('status', 'invited', 'invited_at', (held.entry).invited_at, 'invitation_expires_at', invitation.expires_at,
                                         'rewards', private.waitlist_own_rewards((held.entry).id));
  end if;
  if (held.entry).status = 'joined' then
    return pg_catalog.jsonb_build_object('status', 'joined', 'joined_at', (held.entry).joined_at, 'rewards', private.waitlist_own_rewards((held.entry).id));
  end if;
  return pg_catalog.jsonb_build_object(
    'status', (held.entry).status,
    'place', private.waitlist_place((held.entry).id),
    'confirmed_total', private.waitlist_line_total('line'),
    'referrals', (held.entry).referral_credits,
    'referral_code', (held.entry).referral_code,
    'places_per_referral', (select s.places_per_referral from private.waitlist_referral_settings s),
    'rewards', private.waitlist_own_rewards((held.entry).id),
    'tasks', private.waitlist_own_tasks((held.entry).id),
    'board', private.waitlist_board_state(held.entry)
  );
end
$$;

comment on function public.waitlist_me(text) is
  'What the link''s page shows its holder: ''pending'' (press to confirm), ''expired'', or their place, credits, referral code, rewards ([{rung, status}], granted or held), research tasks ({done, places, cap}) and leaderboard choice ({on_board, name, initials, hidden, rank}); null for any other token. Rate limited per network.';

revoke all on function public.waitlist_me(text) from public, anon, authenticated, service_role;
grant execute on function public.waitlist_me(text) to anon, service_role;

-- Everything stored about the holder: their entry, its messages, their invitations (times only:
-- their tokens are secrets) and every reward they earned, refused ones too.
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
    'exported_at', pg_catalog.now()
  );
end
$$;

comment on function public.waitlist_export_me(text) is
  'Everything stored about the token holder (their entry, its messages, invitations, rewards earned and research tasks answered), as JSON; null for any other token. Rate limited per network.';

revoke all on function public.waitlist_export_me(text) from public, anon, authenticated, service_role;
grant execute on function public.waitlist_export_me(text) to anon, service_role;

-- A page of the list in (created_at, id) order after the given entry (null: from the start) and
-- up to and including upto_* (null: to the end), for waitlist:list and waitlist:export. Each entry
-- is an array of its values in the order of LISTED_FIELDS (tools/owner/owner.ts), its referrer's
-- e-mail after referred_by: half the bytes of objects, and json (text built once) rather than
-- jsonb, which is slower to build: 5,000 entries in about 70 ms here instead of 200 ms. Both ends
-- are row comparisons with no OR and no null test, so a plan made once for any arguments still
-- reads the index from the lower key and stops at the upper one.
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
begin
  perform private.waitlist_export_arguments(after_created_at, after_id, page_size);
  if (upto_created_at is null) <> (upto_id is null) then
    raise exception 'upto_created_at and upto_id go together' using errcode = '22023';
  end if;
  return coalesce((
    select pg_catalog.json_agg(pg_catalog.json_build_array(
             p.id, p.created_at, p.status, p.confirmed_at, p.invited_at, p.joined_at, p.name, p.email, p.project,
             p.utm_source, p.utm_medium, p.utm_campaign, p.referrer_host, p.landing_path, p.flag,
             p.referral_credits, p.referred_by, r.email, p.updates, p.updates_opted_in_at, p.updates_stopped_at, p.language, p.answers,
             -- Only a referrer can have earned a rung (18_rewards.sql): everyone else's is not looked up.
             case when p.referral_credits > 0 then (
               select pg_catalog.string_agg(e.rung || ':' || e.status, ';' order by e.earned_at, e.rung)
                 from private.waitlist_rewards_earned e where e.entry_id = p.id
             ) end,
             -- The research tasks answered (19_tasks.sql), looked up only once anyone answered one.
             case when any_tasks and p.status <> 'pending' then private.waitlist_own_task_answers(p.id) end
           ) order by p.created_at, p.id)
      from (select w.*
              from public.waitlist w
             where (w.created_at, w.id) > (coalesce(after_created_at, '-infinity'), coalesce(after_id, '00000000-0000-0000-0000-000000000000'))
               and (w.created_at, w.id) <= (coalesce(upto_created_at, 'infinity'), coalesce(upto_id, 'ffffffff-ffff-ffff-ffff-ffffffffffff'))
             order by w.created_at, w.id
             limit page_size) p
      left join public.waitlist r on r.id = p.referred_by
  ), '[]'::json);
end
$$;

comment on function public.waitlist_export_page(timestamptz, uuid, integer, timestamptz, uuid) is
  'Up to page_size entries (1 to 50,000) after (after_created_at, after_id) and up to and including (upto_created_at, upto_id), oldest first, as one json array of arrays (id, created_at, status, confirmed_at, invited_at, joined_at, name, email, project, utm_source, utm_medium, utm_campaign, referrer_host, landing_path, flag, referral_credits, referred_by, the referrer''s email, updates, updates_opted_in_at, updates_stopped_at, language, answers, the rewards earned as "rung:status;…" or null, the research tasks answered as {task: {title, answers, places, completed_at, revoked_at}} or null): keyset pages of the whole list for waitlist:list and waitlist:export. service_role only.';

revoke all on function public.waitlist_export_page(timestamptz, uuid, integer, timestamptz, uuid) from public, anon, authenticated, service_role;
grant execute on function public.waitlist_export_page(timestamptz, uuid, integer, timestamptz, uuid) to service_role;
