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
