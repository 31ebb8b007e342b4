-- The API roles and the schemas everything else lives in.
--
-- Roles: Supabase's anon (the public key in every browser), authenticated (unused: the site has no
-- sign-in) and service_role (server-side only, bypasses row-level security). They exist on every
-- Supabase project; created here only where they are missing (plain PostgreSQL, PGlite), so the
-- same files run on the local stand-in and in the tests.
--
-- Schemas: public (exposed through the API), private (never exposed: no usage for the API roles)
-- and waitlist_rules (pure functions the inserting role evaluates in triggers and checks).
-- No extensions: gen_random_uuid(), sha256() and normalize() are built in since PostgreSQL 13/14.
-- Every file revokes what Supabase's default privileges would grant on a new object and grants
-- exactly what it means to allow.
--
-- TypeScript twin: none (tools/supabase-local/ plays the API in front of these roles).

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

create schema if not exists private;
comment on schema private is 'Not exposed through the API: no usage for anon or authenticated.';
revoke all on schema private from public, anon, authenticated;

create schema if not exists waitlist_rules;
comment on schema waitlist_rules is
  'Pure functions behind the waitlist field rules; not exposed through the API (only public is).';
revoke all on schema waitlist_rules from public;
-- The inserting role evaluates the trigger and the check constraints, so it calls these.
grant usage on schema waitlist_rules to anon, authenticated, service_role;
