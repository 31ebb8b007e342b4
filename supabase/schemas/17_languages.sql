-- The languages the site publishes (issue #66): a sign-up is stored only in one of them.
--
-- Guarantees:
--   * public.waitlist.language (02_waitlist.sql) must be a code the site publishes, for every writer:
--     the waitlist_language_published trigger refuses any other with 23514 (HTTP 400). The form
--     never sends one (it sends its own page's language); an import reports such a row by its line
--     (tools/owner/import.ts) before the database would refuse it. Every e-mail links to pages in the
--     person's language, so a language without pages would be a link nobody can confirm.
--   * private.waitlist_languages is the Languages document's codes as published in Sanity, English
--     always among them, replaced as a whole by public.waitlist_replace_languages, which only
--     service_role may call (the site's server, after each publish and on each scheduled outbox
--     run: components/waitlist/languages-sync.ts). It starts with the languages the seed publishes.
--   * An entry stored in a language the site stopped publishing stays; its e-mails are written in
--     English and lead to English pages (components/waitlist/outbox/dispatch.ts, languages).
--   * anon can read neither the set nor call its functions.
--
-- TypeScript twins: lib/i18n/languages.ts (LANGUAGE_CODE_PATTERN, DEFAULT_LANGUAGE) and
-- components/waitlist/languages-sync.ts.

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
