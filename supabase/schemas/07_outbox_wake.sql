-- Wakes the dispatcher the moment a message is queued, on hosted Supabase: an insert into
-- public.waitlist_outbox asks pg_net to POST the dispatch route (app/api/outbox/dispatch/route.ts)
-- with the bearer secret, as the Database Webhook the founders used to click together did. The
-- host's every-minute cron (vercel.json) stays the catch-up and the retries.
--
--   * The route's address and its secret are read from Supabase Vault at each insert, never
--     written in SQL: `outbox_dispatch_url` (https://<site>/api/outbox/dispatch) and
--     `outbox_dispatch_secret` (OUTBOX_DISPATCH_SECRET), set once per project (docs/founders.md,
--     "E-mail delivery and Slack in a deployment").
--   * pg_net queues the request in the inserting transaction and sends it after commit, from its
--     own worker: a sign-up never waits for the site, and a rolled-back insert wakes nobody.
--   * Where pg_net is absent (the local stand-in, PGlite, Debian's PostgreSQL in the tests) the
--     trigger does nothing, and the setup says so once with a notice; locally the dispatch loop
--     (runDispatchLoop in tools/local/local-mail.ts) polls instead. Where pg_net is there but a Vault secret is not,
--     each insert warns, naming the secret. Nothing here can fail the insert that queues a message.
--
-- TypeScript twin: none (tests/integration/outbox-wake-db.test.ts plays pg_net and Vault).

do $$
begin
  if exists (select 1 from pg_catalog.pg_available_extensions where name = 'pg_net') then
    create extension if not exists pg_net;
  else
    raise notice 'pg_net is not available here: new outbox messages will not wake the dispatcher (run a dispatch loop or a cron instead).';
  end if;
end
$$;

create function private.waitlist_outbox_wake()
returns trigger
language plpgsql
security definer
set search_path = ''
as $$
declare
  dispatch_url text;
  dispatch_secret text;
begin
  -- Checked at each insert, not at setup, so enabling pg_net later needs no new migration.
  if pg_catalog.to_regprocedure('net.http_post(text, jsonb, jsonb, jsonb, integer)') is null then
    return null;
  end if;
  if pg_catalog.to_regclass('vault.decrypted_secrets') is null then
    raise warning 'outbox wake-up skipped: Supabase Vault is not installed';
    return null;
  end if;
  select s.decrypted_secret into dispatch_url from vault.decrypted_secrets s where s.name = 'outbox_dispatch_url';
  select s.decrypted_secret into dispatch_secret from vault.decrypted_secrets s where s.name = 'outbox_dispatch_secret';
  if dispatch_url is null or dispatch_secret is null then
    raise warning 'outbox wake-up skipped: set the Vault secret %', case when dispatch_url is null then 'outbox_dispatch_url' else 'outbox_dispatch_secret' end;
    return null;
  end if;
  begin
    perform net.http_post(
      url := dispatch_url,
      body := '{}'::jsonb,
      headers := pg_catalog.jsonb_build_object('Content-Type', 'application/json', 'Authorization', 'Bearer ' || dispatch_secret),
      -- Above the dispatcher's run budget (components/waitlist/outbox/dispatch.ts, RUN_BUDGET_MS):
      -- the route answers when its run ends, and a cut connection could end the run on some hosts.
      timeout_milliseconds := 60000
    );
  exception when others then
    raise warning 'outbox wake-up failed (the cron will deliver): %', sqlerrm;
  end;
  return null;
end
$$;

comment on function private.waitlist_outbox_wake() is
  'After each new outbox message: POSTs the dispatch route through pg_net with the URL and bearer secret from Vault (outbox_dispatch_url, outbox_dispatch_secret). Does nothing where pg_net is absent; never fails the insert.';

revoke all on function private.waitlist_outbox_wake() from public, anon, authenticated, service_role;

create trigger waitlist_outbox_wake
  after insert on public.waitlist_outbox
  for each row execute function private.waitlist_outbox_wake();
