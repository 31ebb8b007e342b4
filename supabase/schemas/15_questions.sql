-- Questions at sign-up (issue #52): the waitlist page asks up to 5 questions, written in the Studio,
-- and the database keeps only answers to the questions published now, with only their options.
--
-- Guarantees:
--   public.waitlist.answers (02_waitlist.sql) is insertable by anon with the rest of the form, as
--   {"question key": "option key" | ["option key", …] | "short answer"}. The waitlist_answers
--   trigger, for every insert, reads it against private.waitlist_questions and stores instead
--   {"question key": {"question": label, "kind": kind, "options": [keys], "labels": [labels]}} for a
--   choice and {"question": label, "kind": "text", "text": answer} for a short answer, the labels in
--   the sign-up's language as published then: a question changed or removed later leaves every
--   stored answer readable. A key no published question has is dropped; a short answer of
--   whitespace and invisible characters alone is no answer (waitlist_rules.clean_text); a required
--   question left unanswered (WLA01), an option the question does not offer or a value of the wrong shape
--   (WLA02), a short answer over 200 characters (WLA03) or with control or direction characters
--   (WLA04), and an answers value that is not an object (WLA02) refuse the sign-up whole, with a
--   message naming the question. Nothing else is ever stored.
--   private.waitlist_questions is the published set, replaced as a whole by
--   public.waitlist_replace_questions, which only service_role may call (the site's server after
--   each Sanity publish: components/waitlist/questions-sync.ts). anon reads neither it nor any row.
--   Erasure: the answers live in the person's own row, so deleting the row deletes them.
--
-- Why the insert validates instead of the form alone: the public key is in every browser, and a
-- form loaded before a publish is stale; the database is the one place that knows what is
-- published now.
--
-- TypeScript twins: sanity/questions/rules.ts (keys, kinds, limits, repeated in the checks below),
-- components/waitlist/answers.ts (the form's side), components/waitlist/questions-sync.ts.

create table private.waitlist_questions (
  key text primary key check (key ~ '^[a-z][a-z0-9-]{0,39}$'),
  position integer not null unique check (position between 1 and 5),
  kind text not null check (kind in ('one', 'many', 'text')),
  required boolean not null,
  -- {"en": "What is your role?", "de": "…"}: the base language's is always there.
  labels jsonb not null check (jsonb_typeof(labels) = 'object' and labels ? 'en'),
  -- [{"key": "product-manager", "labels": {"en": "Product manager", …}}, …]; none for a short answer.
  options jsonb not null default '[]'::jsonb check (jsonb_typeof(options) = 'array'),
  constraint waitlist_questions_options check ((kind = 'text') = (jsonb_array_length(options) = 0))
);

comment on table private.waitlist_questions is
  'The waitlist page''s questions as published in Sanity, in order; replaced as a whole by public.waitlist_replace_questions.';

revoke all on table private.waitlist_questions from public, anon, authenticated, service_role;

-- A label in the sign-up's language, else in the base language.
create function private.waitlist_label(labels jsonb, language text)
returns text
language sql
immutable
parallel safe
set search_path = ''
return coalesce(labels ->> language, labels ->> 'en');

revoke all on function private.waitlist_label(jsonb, text) from public, anon, authenticated, service_role;

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

create function private.waitlist_answers()
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

-- Insert only: nobody may update a row's answers (service_role has no UPDATE on the table).
create trigger waitlist_answers
  before insert on public.waitlist
  for each row execute function private.waitlist_answers();

-- {"en": "…", "de": "…"}: English present, each key a language code, each label 1 to max
-- characters (the Studio holds them to the plain-text rule).
create function private.waitlist_labels_valid(labels jsonb, max integer)
returns boolean
language sql
immutable
set search_path = ''
return coalesce(
  pg_catalog.jsonb_typeof(labels) = 'object'
  and labels ? 'en'
  and not exists (
    select 1
      from pg_catalog.jsonb_each(labels) l
     where l.key !~ '^[a-z]{2}(-[a-z]{2})?$'
        or pg_catalog.jsonb_typeof(l.value) <> 'string'
        or public.waitlist_trim(l.value #>> '{}') = ''
        or pg_catalog.char_length(l.value #>> '{}') > max
  ),
  false
);

revoke all on function private.waitlist_labels_valid(jsonb, integer) from public, anon, authenticated, service_role;

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
create function public.waitlist_replace_questions(questions jsonb)
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

comment on function public.waitlist_replace_questions(jsonb) is
  'Replaces the waitlist page''s published questions (in order); returns how many are stored. service_role only: the site''s server calls it after each Sanity publish.';

revoke all on function public.waitlist_replace_questions(jsonb) from public, anon, authenticated, service_role;
grant execute on function public.waitlist_replace_questions(jsonb) to service_role;

-- The published questions, for the owner's commands (export columns, segment filters).
create function public.waitlist_questions()
returns table (key text, kind text, required boolean, labels jsonb, options jsonb)
language sql
stable
security definer
set search_path = ''
as $$
  select q.key, q.kind, q.required, q.labels, q.options from private.waitlist_questions q order by q.position
$$;

comment on function public.waitlist_questions() is
  'The waitlist page''s published questions, in order (what a sign-up may answer now). service_role only.';

revoke all on function public.waitlist_questions() from public, anon, authenticated, service_role;
grant execute on function public.waitlist_questions() to service_role;

-- Invitations by segment (the console's "Invite next N" with answers ticked, `waitlist:invite --where`):
-- segment = {"question key": ["option key", …], …}, 1 to 5 questions of 1 to 12 options each. An
-- entry is in it when, for every question named, it chose at least one of the options named. The
-- one other key, "@rung" (no question key can start so), names 1 to 8 rewards rungs, of which the
-- entry must have been granted one (private.waitlist_in_rungs, 18_rewards.sql).
create function private.waitlist_segment_check(segment jsonb)
returns void
language plpgsql
immutable
set search_path = ''
as $$
begin
  if segment is null or pg_catalog.jsonb_typeof(segment) <> 'object' or segment = '{}'::jsonb
     or (select pg_catalog.count(*) from pg_catalog.jsonb_object_keys(segment - '@rung')) > 5
     or exists (
       select 1
         from pg_catalog.jsonb_each(segment - '@rung') s
        where s.key !~ '^[a-z][a-z0-9-]{0,39}$'
           or pg_catalog.jsonb_typeof(s.value) <> 'array'
           or pg_catalog.jsonb_array_length(s.value) not between 1 and 12
           or exists (
             select 1 from pg_catalog.jsonb_array_elements(s.value) o
              where pg_catalog.jsonb_typeof(o) <> 'string' or (o #>> '{}') !~ '^[a-z0-9][a-z0-9-]{0,39}$'
           )
     ) then
    raise exception 'a segment is {"question key": ["option key", ...]}: 1 to 5 questions of 1 to 12 options' using errcode = '22023';
  end if;
  if segment ? '@rung' and (
       pg_catalog.jsonb_typeof(segment -> '@rung') <> 'array'
       or pg_catalog.jsonb_array_length(segment -> '@rung') not between 1 and 8
       or exists (
         select 1 from pg_catalog.jsonb_array_elements(segment -> '@rung') r
          where pg_catalog.jsonb_typeof(r) <> 'string' or (r #>> '{}') !~ '^[a-z][a-z0-9-]{0,39}$'
       )
     ) then
    raise exception 'a segment''s "@rung" is ["rung key", ...]: 1 to 8 rungs' using errcode = '22023';
  end if;
end
$$;

revoke all on function private.waitlist_segment_check(jsonb) from public, anon, authenticated, service_role;

create function private.waitlist_in_segment(answers jsonb, segment jsonb)
returns boolean
language sql
immutable
parallel safe
set search_path = ''
return not exists (
  select 1
    from pg_catalog.jsonb_each(segment) s
   where s.key <> '@rung'
     and not coalesce((answers -> s.key -> 'options') ?| array(select pg_catalog.jsonb_array_elements_text(s.value)), false)
);

revoke all on function private.waitlist_in_segment(jsonb, jsonb) from public, anon, authenticated, service_role;

-- How the line answers, for the founders' console: per question and option, how many entries in
-- line (confirmed, not yet invited) chose it; a short answer counts once per entry that gave one
-- (option null); last, with question null, how many are in line, for the shares. One scan of the
-- entries in line.
create function public.waitlist_answer_counts()
returns table (question text, option text, entries integer)
language sql
stable
security definer
set search_path = ''
set jit = off
as $$
  select a.key, o.option, pg_catalog.count(*)::integer
    from public.waitlist w
   cross join lateral pg_catalog.jsonb_each(w.answers) a
   cross join lateral pg_catalog.jsonb_array_elements_text(coalesce(a.value -> 'options', '[null]'::jsonb)) o (option)
   where w.status = 'confirmed' and w.answers <> '{}'::jsonb
   group by 1, 2
   union all
  select null, null, private.waitlist_line_total('line')::integer
   order by 1 nulls last, 2
$$;

comment on function public.waitlist_answer_counts() is
  'Per question and option, how many entries in line (confirmed) chose it; a short answer counts with option null; then (question null) how many are in line. service_role only.';

revoke all on function public.waitlist_answer_counts() from public, anon, authenticated, service_role;
grant execute on function public.waitlist_answer_counts() to service_role;
