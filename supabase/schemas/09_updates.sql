-- Updates by e-mail: who asked for them, a post going to them once, and one click stopping them.
--
-- Guarantees:
--   * public.waitlist.updates is off unless the person ticks the form's box; when it was turned on
--     and off is the database's clock (a trigger), whatever the writer sends. The person changes it
--     on their own page with waitlist_updates(token, wanted).
--   * waitlist_broadcast_post(post_id, ...), for the site's server (service role), records the post
--     in private.waitlist_broadcasts and queues one update e-mail per confirmed person who wants
--     updates; a second call for the same post writes nothing.
--   * Turning updates off skips their waiting update e-mails, and the dispatcher's last call before
--     sending (waitlist_outbox_attach_unsubscribe, 07_outbox.sql) refuses an update e-mail unless
--     the person still wants updates, under the entry's row lock.
--   * Every e-mail to a person carries a one-click unsubscribe token (hash only, no expiry) whose
--     scope the database sets: an update e-mail's stops updates and keeps the entry; every other
--     erases the entry, without an e-mail confirming it.
--
-- TypeScript twins: components/waitlist/updates.ts (the publish webhook's side) and
-- components/waitlist/unsubscribe-route.ts (one click).

create table private.waitlist_unsubscribe_tokens (
  token_hash text primary key check (token_hash ~ '^[0-9a-f]{64}$'),
  entry_id uuid not null references public.waitlist (id) on delete cascade,
  created_at timestamptz not null default now(),
  scope text not null default 'waitlist' check (scope in ('waitlist', 'updates'))
);

comment on table private.waitlist_unsubscribe_tokens is
  'SHA-256 (hex) of the one-click unsubscribe token of each e-mail sent to a person on the list; it only takes that person off.';

comment on column private.waitlist_unsubscribe_tokens.scope is
  '''updates'': the token of an update e-mail, which only stops updates; ''waitlist'': any other, which takes the person off the list.';

create index waitlist_unsubscribe_tokens_entry on private.waitlist_unsubscribe_tokens (entry_id);

revoke all on table private.waitlist_unsubscribe_tokens from public, anon, authenticated, service_role;

create table private.waitlist_broadcasts (
  post_id text primary key check (post_id ~ '^[A-Za-z0-9_-][A-Za-z0-9._-]{0,127}$' and post_id !~ '^drafts\.'),
  title text not null,
  path text not null,
  recipients integer not null default 0 check (recipients >= 0),
  created_at timestamptz not null default now()
);

comment on table private.waitlist_broadcasts is
  'Every post e-mailed to the people who asked for updates, by its Sanity _id: one row, one e-mail per person, however often it is published.';

revoke all on table private.waitlist_broadcasts from public, anon, authenticated, service_role;

-- One click: an 'updates' token stops updates and keeps the entry; a 'waitlist' token erases it
-- (without an e-mail confirming it: someone who asked for no more mail gets none).
create function public.waitlist_unsubscribe(token text)
returns boolean
language plpgsql
volatile
security definer
set search_path = ''
as $$
declare
  link private.waitlist_unsubscribe_tokens;
begin
  if token is null or token !~ '^(updates\.)?[A-Za-z0-9_-]{43}$' then
    return false;
  end if;
  select * into link from private.waitlist_unsubscribe_tokens k
   where k.token_hash = pg_catalog.encode(pg_catalog.sha256(pg_catalog.convert_to(token, 'UTF8')), 'hex');
  if not found then
    return false;
  end if;
  if link.scope = 'updates' then
    update public.waitlist w set updates = false where w.id = link.entry_id and w.updates;
    return true;
  end if;
  delete from public.waitlist w where w.id = link.entry_id;
  return true;
end
$$;

comment on function public.waitlist_unsubscribe(text) is
  'One-click unsubscribe (RFC 8058), for the site''s /api/unsubscribe (service role): an update e-mail''s token stops updates, any other erases the entry, with no further e-mail. False for any other token.';

revoke all on function public.waitlist_unsubscribe(text) from public, anon, authenticated, service_role;
grant execute on function public.waitlist_unsubscribe(text) to service_role;

-- The times are the database's, for every writer: an insert or update cannot set them.
create function private.waitlist_updates_times()
returns trigger
language plpgsql
security definer
set search_path = ''
as $$
begin
  if tg_op = 'INSERT' then
    new.updates_opted_in_at := case when new.updates then pg_catalog.now() end;
    new.updates_stopped_at := null;
  elsif new.updates is distinct from old.updates then
    new.updates_opted_in_at := case when new.updates then pg_catalog.now() else old.updates_opted_in_at end;
    new.updates_stopped_at := case when new.updates then null else pg_catalog.now() end;
  else
    new.updates_opted_in_at := old.updates_opted_in_at;
    new.updates_stopped_at := old.updates_stopped_at;
  end if;
  return new;
end
$$;

revoke all on function private.waitlist_updates_times() from public, anon, authenticated, service_role;

create trigger waitlist_updates_times
  before insert or update on public.waitlist
  for each row execute function private.waitlist_updates_times();

-- Whoever turns updates off (their page, one click, the owner's SQL): nothing waiting goes out.
create function private.waitlist_updates_stopped()
returns trigger
language plpgsql
security definer
set search_path = ''
as $$
begin
  update public.waitlist_outbox o
     set status = 'skipped', note = 'The person stopped updates before this e-mail was sent.'
   where o.entry_id = new.id and o.kind = 'update_email' and o.status = 'pending';
  return null;
end
$$;

revoke all on function private.waitlist_updates_stopped() from public, anon, authenticated, service_role;

create trigger waitlist_updates_stopped
  after update of updates on public.waitlist
  for each row when (old.updates and not new.updates) execute function private.waitlist_updates_stopped();

-- The person's own page: whether they get updates (wanted null), or turn them on or off. Null for
-- a token that opens nothing, and for an unconfirmed entry (its page asks for the confirmation).
create function public.waitlist_updates(token text, wanted boolean default null)
returns boolean
language plpgsql
volatile
security definer
set search_path = ''
as $$
declare
  entry public.waitlist := private.waitlist_entry_for_token(token, wanted is not null);
begin
  if entry.id is null or entry.status = 'pending' then
    return null;
  end if;
  if wanted is not null and wanted is distinct from entry.updates then
    update public.waitlist w set updates = wanted where w.id = entry.id;
    entry.updates := wanted;
  end if;
  return entry.updates;
end
$$;

comment on function public.waitlist_updates(text, boolean) is
  'The link holder''s updates by e-mail: read (wanted null) or set; null for any other token or an unconfirmed entry. Rate limited per network.';

revoke all on function public.waitlist_updates(text, boolean) from public, anon, authenticated, service_role;
grant execute on function public.waitlist_updates(text, boolean) to anon, service_role;

create function public.waitlist_broadcast_post(post_id text, title text, excerpt text, path text)
returns jsonb
language plpgsql
volatile
security definer
set search_path = ''
as $$
declare
  enqueued integer;
begin
  if post_id is null or post_id !~ '^[A-Za-z0-9_-][A-Za-z0-9._-]{0,127}$' or post_id ~ '^drafts\.' then
    raise exception 'post_id must be a published document''s _id' using errcode = '22023';
  end if;
  if title is null or pg_catalog.btrim(title) = '' or pg_catalog.char_length(title) > 200 or pg_catalog.char_length(coalesce(excerpt, '')) > 1000 then
    raise exception 'a title (at most 200 characters) and an excerpt of at most 1000 are needed' using errcode = '22023';
  end if;
  -- A path of this site: no scheme, no host (not even '//host'), no query or fragment.
  if path is null or path !~ '^(/[A-Za-z0-9._~-]+)+$' or pg_catalog.char_length(path) > 200 then
    raise exception 'path must be a path of this site, e.g. /blog/a-post' using errcode = '22023';
  end if;
  -- The primary key decides: a second call waits for the first's transaction, then finds its row.
  insert into private.waitlist_broadcasts (post_id, title, path) values (post_id, title, path)
  on conflict on constraint waitlist_broadcasts_pkey do nothing;
  if not found then
    return pg_catalog.jsonb_build_object('broadcast', false, 'recipients', 0);
  end if;
  insert into public.waitlist_outbox (entry_id, kind, payload)
  select w.id, 'update_email', pg_catalog.jsonb_build_object('post_id', post_id, 'title', title, 'excerpt', coalesce(excerpt, ''), 'path', path)
    from public.waitlist w
   where w.status in ('confirmed', 'invited', 'joined') and w.updates
   order by w.confirmed_at nulls first, w.created_at;
  get diagnostics enqueued = row_count;
  update private.waitlist_broadcasts b set recipients = enqueued where b.post_id = waitlist_broadcast_post.post_id;
  return pg_catalog.jsonb_build_object('broadcast', true, 'recipients', enqueued);
end
$$;

comment on function public.waitlist_broadcast_post(text, text, text, text) is
  'For the site''s server (service role, from the publish webhook): e-mails a post once to every confirmed person who wants updates. {"broadcast": false} when the post was e-mailed before.';

revoke all on function public.waitlist_broadcast_post(text, text, text, text) from public, anon, authenticated, service_role;
grant execute on function public.waitlist_broadcast_post(text, text, text, text) to service_role;
