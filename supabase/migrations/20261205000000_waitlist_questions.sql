-- Questions at sign-up (issue #52): the waitlist page's questions, copied on publish, and each
-- sign-up's answers to them, kept only when they answer what is published; how the line answers,
-- and invitations by answers. See supabase/schemas/15_questions.sql for what this guarantees.
--
-- Never edit this file once applied; change it with a later migration.

alter table public.waitlist
  add column answers jsonb not null default '{}'::jsonb,
  add constraint waitlist_answers_object check (jsonb_typeof(answers) = 'object');

comment on column public.waitlist.answers is
  'The answers to the waitlist page''s questions, each with the question and option labels as the person saw them (15_questions.sql).';

comment on table public.waitlist is
  'Marketing-site waitlist. anon may only insert (name, email, project, and the sign-up''s source, referral, updates, language, experiment variants and answers); see supabase/schemas/02_waitlist.sql.';

grant insert (answers) on table public.waitlist to anon;

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

create function private.waitlist_answers()
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
        if q.required then
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
      if q.required then
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
    select 1
      from pg_catalog.jsonb_array_elements(questions) x
     where pg_catalog.jsonb_typeof(x) <> 'object'
        or pg_catalog.jsonb_typeof(x -> 'key') is distinct from 'string'
        or (x ->> 'key') !~ '^[a-z][a-z0-9-]{0,39}$'
        or (x ->> 'kind') is distinct from 'one' and (x ->> 'kind') is distinct from 'many' and (x ->> 'kind') is distinct from 'text'
        or pg_catalog.jsonb_typeof(x -> 'required') is distinct from 'boolean'
        or not private.waitlist_labels_valid(x -> 'labels', 160)
        or pg_catalog.jsonb_typeof(x -> 'options') is distinct from 'array'
        or case when x ->> 'kind' = 'text' then pg_catalog.jsonb_array_length(x -> 'options') <> 0
                else pg_catalog.jsonb_array_length(x -> 'options') not between 2 and 12 end
        or exists (
          select 1
            from pg_catalog.jsonb_array_elements(x -> 'options') o
           where pg_catalog.jsonb_typeof(o) <> 'object'
              or pg_catalog.jsonb_typeof(o -> 'key') is distinct from 'string'
              or (o ->> 'key') !~ '^[a-z0-9][a-z0-9-]{0,39}$'
              or not private.waitlist_labels_valid(o -> 'labels', 80)
        )
        or (select pg_catalog.count(distinct o ->> 'key') from pg_catalog.jsonb_array_elements(x -> 'options') o)
           <> pg_catalog.jsonb_array_length(x -> 'options')
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
-- entry is in it when, for every question named, it chose at least one of the options named.
create function private.waitlist_segment_check(segment jsonb)
returns void
language plpgsql
immutable
set search_path = ''
as $$
begin
  if segment is null or pg_catalog.jsonb_typeof(segment) <> 'object' or segment = '{}'::jsonb
     or (select pg_catalog.count(*) from pg_catalog.jsonb_object_keys(segment)) > 5
     or exists (
       select 1
         from pg_catalog.jsonb_each(segment) s
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
   where not coalesce((answers -> s.key -> 'options') ?| array(select pg_catalog.jsonb_array_elements_text(s.value)), false)
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

-- The line's head and the invitation take a segment: a new signature, so the old ones go.
drop function public.waitlist_invite_next(integer, boolean);
drop function public.waitlist_line_head(integer);

-- The head of the line, for the owner: place, name, e-mail and status of the next `n` to invite,
-- read from the line's index; with a segment (15_questions.sql), the next `n` of those in it, each
-- with their place in the whole line.
create function public.waitlist_line_head(n integer default 20, segment jsonb default null)
returns jsonb
language plpgsql
stable
security definer
set search_path = ''
as $$
declare
  head jsonb;
begin
  if segment is not null then
    perform private.waitlist_segment_check(segment);
  end if;
  -- The limit is written into the statement so that it is planned with it: the index read in
  -- order. A limit given as a parameter is planned as a tenth of the line, which sorts it all.
  -- Each person is read by their id (a subquery per row; every line row has its entry, on delete
  -- cascade): joined, 10,000 of them were planned as a hash of the whole list. A segment is judged
  -- the same way, row by row as the index is read, so the read stops at the n-th one in it.
  execute pg_catalog.format($head$
    select coalesce(pg_catalog.jsonb_agg(
             (select pg_catalog.jsonb_build_object(
                       'place', h.place, 'id', w.id, 'name', w.name, 'email', w.email, 'project', w.project,
                       'referral_credits', w.referral_credits, 'confirmed_at', w.confirmed_at)
                from public.waitlist w where w.id = h.entry_id)
             order by h.place), '[]'::jsonb)
      from %s h$head$,
    case when segment is null then pg_catalog.format($line$
      (select l.entry_id, pg_catalog.row_number() over (order by l.line_key, l.arrival) as place
         from (select x.entry_id, x.line_key, x.arrival from private.waitlist_line x
                where x.line_key is not null order by x.line_key, x.arrival limit %s) l)$line$, greatest(0, least(n, 10000)))
    else pg_catalog.format($segment$
      (select l.entry_id, l.place
         from (select x.entry_id, pg_catalog.row_number() over (order by x.line_key, x.arrival) as place
                 from private.waitlist_line x where x.line_key is not null order by x.line_key, x.arrival) l
        where (select private.waitlist_in_segment(w.answers, $1) from public.waitlist w where w.id = l.entry_id)
        limit %s)$segment$, greatest(0, least(n, 10000)))
    end)
    into head
    using segment;
  return head;
end
$$;

revoke all on function public.waitlist_line_head(integer, jsonb) from public, anon, authenticated, service_role;
grant execute on function public.waitlist_line_head(integer, jsonb) to service_role;

-- Invites the next `n` confirmed people in place order (with a segment, the next `n` of those who
-- answered so: 15_questions.sql), or only says who they would be.
create function public.waitlist_invite_next(n integer, dry_run boolean default false, segment jsonb default null)
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
  chosen := public.waitlist_line_head(n, segment);
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

revoke all on function public.waitlist_invite_next(integer, boolean, jsonb) from public, anon, authenticated, service_role;
grant execute on function public.waitlist_invite_next(integer, boolean, jsonb) to service_role;

-- The webhook's entry.confirmed and the Slack message read the answers when they are sent, like the name.
create or replace function private.waitlist_outbox_entry(w public.waitlist)
returns jsonb
language sql
stable
set search_path = ''
as $$
  select pg_catalog.jsonb_build_object(
    'id', w.id, 'name', w.name, 'email', w.email, 'project', w.project,
    'utm_source', w.utm_source, 'utm_medium', w.utm_medium, 'utm_campaign', w.utm_campaign,
    'referrer_host', w.referrer_host, 'landing_path', w.landing_path, 'answers', w.answers
  )
$$;

-- waitlist:export's pages carry the answers (one column per question in the file).
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
begin
  perform private.waitlist_export_arguments(after_created_at, after_id, page_size);
  if (upto_created_at is null) <> (upto_id is null) then
    raise exception 'upto_created_at and upto_id go together' using errcode = '22023';
  end if;
  return coalesce((
    select pg_catalog.json_agg(pg_catalog.json_build_array(
             p.id, p.created_at, p.status, p.confirmed_at, p.invited_at, p.joined_at, p.name, p.email, p.project,
             p.utm_source, p.utm_medium, p.utm_campaign, p.referrer_host, p.landing_path, p.flag,
             p.referral_credits, p.referred_by, r.email, p.updates, p.updates_opted_in_at, p.updates_stopped_at, p.language, p.answers
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
  'Up to page_size entries (1 to 50,000) after (after_created_at, after_id) and up to and including (upto_created_at, upto_id), oldest first, as one json array of arrays (id, created_at, status, confirmed_at, invited_at, joined_at, name, email, project, utm_source, utm_medium, utm_campaign, referrer_host, landing_path, flag, referral_credits, referred_by, the referrer''s email, updates, updates_opted_in_at, updates_stopped_at, language, answers): keyset pages of the whole list for waitlist:list and waitlist:export. service_role only.';
