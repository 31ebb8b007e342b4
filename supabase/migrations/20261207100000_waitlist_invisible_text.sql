-- Invisible-only text is blank (issue #66, finding 6): a name, company or short answer made only
-- of tag characters, Hangul fillers, U+180E, soft hyphens and the like was stored. The story is in
-- supabase/schemas/01_rules.sql (waitlist_rules.clean_text); this migration brings a landed
-- database to it. Rows already stored keep their values: no check is added or changed.

create function waitlist_rules.clean_text(value text)
returns text
language sql
immutable
strict
parallel safe
set search_path = ''
return case
  when public.waitlist_trim(pg_catalog.regexp_replace(value, '[\u00AD\u034F\u061C\u115F\u1160\u17B4\u17B5\u180B-\u180F\u200B-\u200F\u202A-\u202E\u2060-\u206F\u2800\u3164\uFE00-\uFE0F\uFEFF\uFFA0\uFFF0-\uFFF8\U0001BCA0-\U0001BCA3\U0001D173-\U0001D17A\U000E0000-\U000E0FFF]', '', 'g')) = '' then ''
  else public.waitlist_trim(value)
end;

comment on function waitlist_rules.clean_text(text) is
  'A name, company or short answer as stored: trimmed, and '''' when only whitespace and invisible characters (components/waitlist/rules.ts, WAITLIST_INVISIBLE_CLASS) remain.';

revoke all on function waitlist_rules.clean_text(text) from public, anon, authenticated, service_role;
grant execute on function waitlist_rules.clean_text(text) to anon, authenticated, service_role;

create or replace function public.waitlist_clean()
returns trigger
language plpgsql
set search_path = ''
as $$
begin
  new.name := waitlist_rules.clean_text(new.name);
  new.email := waitlist_rules.normalize_email(new.email);
  new.project := waitlist_rules.clean_text(new.project);
  return new;
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
      -- Blank (invisible characters alone) is unanswered, as in the form (validateAnswers).
      answer := waitlist_rules.clean_text(coalesce(given #>> '{}', ''));
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
