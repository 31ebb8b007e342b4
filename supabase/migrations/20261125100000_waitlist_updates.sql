-- Updates by e-mail (issue #29): a person may ask, when they sign up, for product updates and new
-- posts; a post published with "E-mail it to subscribers" goes to them once; one click in that
-- e-mail stops updates and nothing else. tests/integration/waitlist-updates.test.ts runs it on
-- PGlite and on a real PostgreSQL server.
--
-- 1. THE OPT-IN. public.waitlist.updates (off unless the person ticks the form's box; the anon key
--    may insert this column and no other new one). When it was turned on (updates_opted_in_at) and
--    off (updates_stopped_at) are written by a trigger from the database's clock, whatever the
--    writer sends: nobody can backdate or forge a consent. The person changes it on their own page
--    with waitlist_updates(token, wanted), guarded and rate limited like the other own-data calls;
--    waitlist_export_me carries the three columns (it exports the whole entry).
-- 2. ONCE PER POST. waitlist_broadcast_post(post_id, title, excerpt, path), for the site's server
--    (service role, from the signed publish webhook), records the post's _id in
--    private.waitlist_broadcasts and, in the same transaction, writes one 'update_email' per
--    confirmed person (confirmed, invited or joined) who wants updates. A second call for the same
--    post, however it comes (publishing again, an edit, a replayed or retried webhook, two at once),
--    finds the row and writes nothing.
-- 3. SUPPRESSION AT SEND TIME. An erased person's messages go with their entry (on delete cascade).
--    Turning updates off marks their pending update e-mails skipped; and the dispatcher's last call
--    before sending (waitlist_outbox_attach_unsubscribe) refuses an update e-mail, under the entry's
--    row lock, unless the person still wants updates. The hourly cap (500) applies as to every
--    e-mail, and under it update e-mails go after every other due message (a post to a long list
--    must not hold a new sign-up's confirmation back for hours); the per-mailbox cap does not: it
--    is for links anyone can ask for, and only the founders can cause these.
-- 4. ONE CLICK, ITS OWN SCOPE. Each unsubscribe token now has a scope, set by the database from the
--    e-mail it was minted for: an update e-mail's is 'updates', every other 'waitlist'.
--    waitlist_unsubscribe(token) with an 'updates' token turns updates off (with its time) and keeps
--    the entry; a 'waitlist' token erases it as before. The dispatcher writes an updates token as
--    'updates.' and 43 characters, so the leave page can word itself before anything is asked; the
--    hash covers the prefix, so changing it makes an unknown token, and the scope that acts is the
--    stored one.
--
-- Never edit this file once applied; change it with a later migration.

-- ---------------------------------------------------------------------------
-- 1. The opt-in

alter table public.waitlist
  add column updates boolean not null default false,
  add column updates_opted_in_at timestamptz,
  add column updates_stopped_at timestamptz,
  add constraint waitlist_updates_time check (not updates or updates_opted_in_at is not null);
comment on column public.waitlist.updates is 'The person asked for product updates and new posts by e-mail (the form''s box, or their own page), and has not stopped them.';
comment on column public.waitlist.updates_opted_in_at is 'When updates were last turned on (the database''s clock).';
comment on column public.waitlist.updates_stopped_at is 'When updates were last turned off after being on (their page, or one click in an update e-mail).';

grant insert (updates) on table public.waitlist to anon;

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

-- ---------------------------------------------------------------------------
-- 2. Once per post

create table private.waitlist_broadcasts (
  post_id text primary key check (post_id ~ '^[A-Za-z0-9_-][A-Za-z0-9._-]{0,127}$' and post_id !~ '^drafts\.'),
  title text not null,
  path text not null,
  recipients integer not null default 0 check (recipients >= 0),
  created_at timestamptz not null default now()
);
comment on table private.waitlist_broadcasts is
  'Every post e-mailed to the people who asked for updates, by its Sanity _id: one row, one e-mail per person, however often it is published.';

alter table public.waitlist_outbox drop constraint waitlist_outbox_kind_check;
alter table public.waitlist_outbox
  add constraint waitlist_outbox_kind_check check (kind in (
    'confirmation_email', 'access_email', 'invitation_email', 'reminder_email', 'update_email', 'slack_confirmed', 'slack_joined', 'erasure_email'
  ));

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

-- ---------------------------------------------------------------------------
-- 3-4. Suppression at send time, and the token's scope

alter table private.waitlist_unsubscribe_tokens
  add column scope text not null default 'waitlist' check (scope in ('waitlist', 'updates'));
comment on column private.waitlist_unsubscribe_tokens.scope is
  '''updates'': the token of an update e-mail, which only stops updates; ''waitlist'': any other, which takes the person off the list.';

-- As in the invitations migration, and: the scope comes from the message's kind; an update e-mail
-- gets none (so is not sent) unless its person still wants updates, checked under their row lock.
create or replace function public.waitlist_outbox_attach_unsubscribe(message_id uuid, lease uuid, new_token_hash text)
returns boolean
language plpgsql
volatile
security definer
set search_path = ''
as $$
declare
  message public.waitlist_outbox;
begin
  select * into message from public.waitlist_outbox o
   where o.id = message_id and o.lease_id = lease and o.status = 'sending' and o.lease_until > pg_catalog.now() and o.entry_id is not null;
  if not found then
    return false;
  end if;
  if message.kind = 'update_email' then
    perform 1 from public.waitlist w where w.id = message.entry_id and w.updates and w.status in ('confirmed', 'invited', 'joined') for update;
    if not found then
      return false;
    end if;
  end if;
  insert into private.waitlist_unsubscribe_tokens (token_hash, entry_id, scope)
  values (new_token_hash, message.entry_id, case when message.kind = 'update_email' then 'updates' else 'waitlist' end);
  return true;
end
$$;

-- As in the invitations migration, and an 'updates' token stops updates and keeps the entry.
create or replace function public.waitlist_unsubscribe(token text)
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

-- ---------------------------------------------------------------------------
-- 3. The hourly cap, and who goes first under it

-- As in the abuse migration, and update e-mails are claimed after every other due message: they
-- share the hourly cap (500) with the links people are waiting for, and a post to a long list
-- would otherwise put the next sign-up's confirmation hours behind it.
create or replace function public.waitlist_outbox_claim(max_messages integer default 20)
returns jsonb
language plpgsql
volatile
security definer
set search_path = ''
as $$
declare
  settings private.waitlist_confirmation_settings;
  caps private.waitlist_mail_caps;
  budget integer;
  candidate record;
  recipient text;
  recent integer;
  taken uuid[] := '{}';
  claimed jsonb;
begin
  select * into strict settings from private.waitlist_confirmation_settings;
  select * into strict caps from private.waitlist_mail_caps;

  update public.waitlist_outbox o
     set status = 'in_doubt', lease_id = null, lease_until = null,
         last_error = 'The dispatcher stopped between claiming and marking this message; it may have been delivered, so it is not sent again.'
   where o.status = 'sending' and o.lease_until < pg_catalog.now();

  update public.waitlist_outbox o
     set status = 'skipped', note = 'The entry was confirmed before this e-mail was sent.'
    from public.waitlist w
   where o.entry_id = w.id and o.kind = 'confirmation_email' and o.status = 'pending' and w.status <> 'pending';

  perform pg_catalog.pg_advisory_xact_lock(pg_catalog.hashtext('waitlist mail caps'));
  select caps.emails_per_hour - count(*) into budget
    from private.waitlist_mail_log l where l.created_at > pg_catalog.now() - interval '1 hour';

  for candidate in
    select o.id, o.kind, o.attempts, coalesce(w.email, o.payload ->> 'email') as email
      from public.waitlist_outbox o
      left join public.waitlist w on w.id = o.entry_id
     where o.status = 'pending' and o.available_at <= pg_catalog.now()
     -- Update e-mails last: a broadcast to thousands waits for the hourly cap, and must not hold
     -- back the links a new sign-up is waiting for (or an invitation) behind it.
     order by o.kind = 'update_email', o.available_at, o.created_at
     limit 500
     for update of o skip locked
  loop
    exit when pg_catalog.cardinality(taken) >= greatest(0, least(max_messages, 100));
    if candidate.kind like '%\_email' and candidate.attempts = 0 then
      continue when budget <= 0;
      recipient := private.waitlist_mailbox_hash('mail', candidate.email);
      if candidate.kind in ('confirmation_email', 'access_email') then
        select count(*) into recent from private.waitlist_mail_log l
         where l.recipient_hash = recipient and l.kind in ('confirmation_email', 'access_email')
           and l.created_at > pg_catalog.now() - caps.recipient_window;
        if recent >= caps.unproven_per_recipient then
          update public.waitlist_outbox o
             set status = 'skipped',
                 note = pg_catalog.left(pg_catalog.format('Not sent: this mailbox had %s links within %s (the cap for links anyone can ask for).', recent, caps.recipient_window), 200)
           where o.id = candidate.id;
          continue;
        end if;
      end if;
      insert into private.waitlist_mail_log (recipient_hash, kind) values (recipient, candidate.kind);
      budget := budget - 1;
    end if;
    taken := taken || candidate.id;
  end loop;

  with grabbed as (
    update public.waitlist_outbox o
       set status = 'sending', lease_id = gen_random_uuid(), lease_until = pg_catalog.now() + settings.lease,
           attempts = o.attempts + 1
     where o.id = any (taken)
     returning o.*
  )
  select coalesce(pg_catalog.jsonb_agg(pg_catalog.jsonb_build_object(
           'id', t.id, 'kind', t.kind, 'lease_id', t.lease_id, 'attempts', t.attempts, 'payload', t.payload,
           'entry', case when w.id is null then null else pg_catalog.jsonb_build_object(
             'id', w.id, 'name', w.name, 'email', w.email, 'project', w.project,
             'utm_source', w.utm_source, 'utm_medium', w.utm_medium, 'utm_campaign', w.utm_campaign,
             'referrer_host', w.referrer_host, 'landing_path', w.landing_path
           ) end
         ) order by t.available_at, t.created_at), '[]'::jsonb)
    into claimed
    from grabbed t
    left join public.waitlist w on w.id = t.entry_id;
  return claimed;
end
$$;

revoke all on all functions in schema private from public, anon, authenticated, service_role;
revoke all on function public.waitlist_broadcast_post(text, text, text, text), public.waitlist_updates(text, boolean)
  from public, anon, authenticated, service_role;
grant execute on function public.waitlist_broadcast_post(text, text, text, text) to service_role;
grant execute on function public.waitlist_updates(text, boolean) to anon, service_role;
