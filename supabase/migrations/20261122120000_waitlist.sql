-- Waitlist sign-ups from the public marketing site.
--
-- Who may do what:
--   anon (the public key shipped to every browser): INSERT name, email, project. Nothing else:
--        it cannot read, change or delete a single row, so the public key cannot leak the list.
--   authenticated: nothing (the marketing site has no sign-in).
--   service_role (server-side only, bypasses RLS): SELECT for the owner's list/export commands,
--        DELETE for erasure requests (and for tests to clean up after themselves).
--
-- Why the site inserts WITHOUT reading the row back:
--   The spec asks for the inserted row back. Through PostgREST that means
--   `Prefer: return=representation`, i.e. INSERT ... RETURNING, which Postgres only allows with a
--   SELECT privilege, and under RLS a SELECT policy, for anon. Any SELECT policy that lets a
--   visitor read back "their" row lets anyone holding the public key read every e-mail. A 201
--   with an empty body already proves the row is stored, so the client asks for nothing back.
--
-- Field rules (mirrored by lib/waitlist/rules.ts; the two must agree):
--   * values are trimmed by a BEFORE trigger, so stored values are always clean and the
--     length/format rules apply to what is stored;
--   * name and email are required and not blank; project is '' when the form has no company;
--   * at most 100 / 254 / 200 characters (code points) for name / email / project;
--   * a pragmatic e-mail shape (see waitlist_email_format);
--   * one entry per e-mail, ignoring case and surrounding whitespace.
--
-- This file also runs unchanged on plain Postgres and on PGlite (supabase/local), hence the
-- guarded role creation below; on Supabase those roles already exist.

do $$
begin
  if not exists (select 1 from pg_catalog.pg_roles where rolname = 'anon') then
    create role anon nologin noinherit;
  end if;
  if not exists (select 1 from pg_catalog.pg_roles where rolname = 'authenticated') then
    create role authenticated nologin noinherit;
  end if;
  if not exists (select 1 from pg_catalog.pg_roles where rolname = 'service_role') then
    create role service_role nologin noinherit bypassrls;
  end if;
end
$$;

grant usage on schema public to anon, authenticated, service_role;

-- Trims the same characters as trimWaitlistText() in lib/waitlist/rules.ts (String#trim's set,
-- written out). Plain btrim() only removes spaces, and [[:space:]] depends on the locale.
-- E-strings have no \v escape, hence \u000B.
create function public.waitlist_trim(value text)
returns text
language sql
immutable
strict
parallel safe
set search_path = ''
return pg_catalog.btrim(
  value,
  E'\t\n\u000B\f\r \u00A0\u1680\u2000\u2001\u2002\u2003\u2004\u2005\u2006\u2007\u2008\u2009\u200A\u2028\u2029\u202F\u205F\u3000\uFEFF'
);

comment on function public.waitlist_trim(text) is
  'Trims the whitespace set shared with lib/waitlist/rules.ts (WAITLIST_WHITESPACE).';

create table public.waitlist (
  id uuid primary key default gen_random_uuid(),
  name text not null,
  email text not null,
  project text not null default '',
  created_at timestamptz not null default now(),

  -- Checked on the stored value; they do not rely on the trim trigger having run.
  constraint waitlist_name_not_blank check (public.waitlist_trim(name) <> ''),
  constraint waitlist_name_length check (char_length(name) <= 100),
  constraint waitlist_email_not_blank check (public.waitlist_trim(email) <> ''),
  constraint waitlist_email_length check (char_length(email) <= 254),
  -- Same pattern source as WAITLIST_EMAIL_PATTERN_SOURCE in lib/waitlist/rules.ts: local part
  -- without @ or whitespace, one @, then two or more non-empty dot-separated labels.
  constraint waitlist_email_format check (
    email ~ '^[^@\t\n\v\f\r \u00A0\u1680\u2000-\u200A\u2028\u2029\u202F\u205F\u3000\uFEFF]+@[^@.\t\n\v\f\r \u00A0\u1680\u2000-\u200A\u2028\u2029\u202F\u205F\u3000\uFEFF]+(\.[^@.\t\n\v\f\r \u00A0\u1680\u2000-\u200A\u2028\u2029\u202F\u205F\u3000\uFEFF]+)+$'
  ),
  constraint waitlist_project_length check (char_length(project) <= 200)
);

comment on table public.waitlist is
  'Marketing-site waitlist. anon may only insert (name, email, project); see the migration header.';
comment on column public.waitlist.project is 'The form''s "Project or Company" value, '''' when left empty.';

-- "Already on the waitlist" is this index: Foo@Example.com and " foo@example.com" are one person.
create unique index waitlist_email_unique on public.waitlist (lower(public.waitlist_trim(email)));

create index waitlist_created_at on public.waitlist (created_at);

-- Trimming in a trigger (rather than refusing untrimmed values) keeps stored values clean for
-- every writer, not just the site's form, while accepting what a person would call the same input.
create function public.waitlist_clean()
returns trigger
language plpgsql
set search_path = ''
as $$
begin
  new.name := public.waitlist_trim(new.name);
  new.email := public.waitlist_trim(new.email);
  new.project := public.waitlist_trim(new.project);
  return new;
end
$$;

create trigger waitlist_clean
  before insert or update on public.waitlist
  for each row execute function public.waitlist_clean();

-- Privileges. New Supabase projects no longer grant new public tables to the API roles, and
-- older ones grant everything through default privileges: start from nothing either way.
revoke all on table public.waitlist from public, anon, authenticated, service_role;
grant insert (name, email, project) on table public.waitlist to anon;
grant select, delete on table public.waitlist to service_role;

-- The check constraints evaluate waitlist_trim() as the inserting role.
revoke all on function public.waitlist_trim(text) from public;
grant execute on function public.waitlist_trim(text) to anon, authenticated, service_role;
revoke all on function public.waitlist_clean() from public, anon, authenticated;

alter table public.waitlist enable row level security;

-- The only policy: anon may insert. Its check deliberately does NOT repeat the field rules:
-- Postgres evaluates RLS WITH CHECK before CHECK constraints, so a failing rule here would turn
-- every precise 23514 "violates check constraint waitlist_name_length" (HTTP 400) into an opaque
-- 42501 "violates row-level security policy" (HTTP 401). Instead it pins what the column grants
-- already imply, so widening the grants by mistake cannot let anon backdate entries.
create policy waitlist_anon_insert
  on public.waitlist
  for insert
  to anon
  with check (created_at >= now() - interval '1 minute' and created_at <= now() + interval '1 minute');

-- No select, update or delete policy for anon or authenticated: with RLS on, none means none.
-- service_role bypasses RLS (BYPASSRLS on Supabase and above), so it needs no policy either.
