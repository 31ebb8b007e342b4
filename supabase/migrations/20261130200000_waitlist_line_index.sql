-- The place in line from an index (issue #51): the line is kept as rows (private.waitlist_line:
-- an arrival drawn at the first confirmation, a key while in line) with an index, and counts per
-- bucket of keys, so a place, the head of the line and the Slack total no longer rank or count the
-- whole list, and confirmations no longer wait for each other under an advisory lock. See
-- supabase/schemas/05_line.sql and docs/waitlist.md, "The line". Existing entries get arrivals in
-- today's order of confirmation, and their keys and counts, at the end (private.waitlist_line_rebuild).
--
-- Never edit this file once applied; change it with a later migration.

-- The line's order: each entry that confirms draws an arrival number (private.waitlist_line_arrival,
-- kept for good: an invitation that expires puts the person back with the same one), and its key is
-- arrival - referral_credits * places_per_referral while it is in the line (status 'confirmed'),
-- null otherwise. The line is the order of (key, arrival): each credit moves an entry up
-- places_per_referral arrivals, ties to the earlier arrival. A place is 1 + the entries before it,
-- counted from private.waitlist_line_counts (whole buckets of keys) and the index (inside its own
-- bucket), never by ranking everyone: docs/waitlist.md, "The line".
create sequence private.waitlist_line_arrival;

revoke all on sequence private.waitlist_line_arrival from public, anon, authenticated, service_role;

create table private.waitlist_line (
  entry_id uuid primary key references public.waitlist (id) on delete cascade,
  arrival bigint not null unique,
  line_key bigint
);

comment on table private.waitlist_line is
  'One row per entry that has confirmed and is still on the list: its arrival (fixed at its first confirmation) and its key in the line (null unless status is ''confirmed''). Kept by the waitlist_arrival trigger.';

create index waitlist_line_order on private.waitlist_line (line_key, arrival) where line_key is not null;

revoke all on table private.waitlist_line from public, anon, authenticated, service_role;

create table private.waitlist_line_counts (
  id bigint generated always as identity primary key,
  counter text not null check (counter in ('line', 'total')),
  bucket bigint not null default 0,
  entries bigint not null
);

comment on table private.waitlist_line_counts is
  'Counts as sums of rows, only ever inserted by a change (so concurrent confirmations never wait for each other) and merged by private.waitlist_line_compact: ''line'' the entries in line per bucket of keys, ''total'' every row of private.waitlist_line (confirmed, invited or joined).';

create index waitlist_line_counts_bucket on private.waitlist_line_counts (counter, bucket) include (entries);

revoke all on table private.waitlist_line_counts from public, anon, authenticated, service_role;

-- A bucket holds the keys [b * width, (b + 1) * width): a place reads at most (list / width) bucket
-- rows and width index entries. 1,024 keeps both near a thousand at a million entries. A migration
-- that changes it calls private.waitlist_line_rebuild() after.
create function private.waitlist_line_bucket_width()
returns bigint
language sql
immutable
set search_path = ''
as $$
  select 1024::bigint
$$;

revoke all on function private.waitlist_line_bucket_width() from public, anon, authenticated, service_role;

create function private.waitlist_line_bucket(line_key bigint)
returns bigint
language sql
immutable
strict
set search_path = ''
as $$
  select pg_catalog.floor(line_key::numeric / private.waitlist_line_bucket_width())::bigint
$$;

revoke all on function private.waitlist_line_bucket(bigint) from public, anon, authenticated, service_role;

-- The key of an entry with this arrival, credits and status; null out of the line. Read inside the
-- statement that writes it, so a change of places_per_referral (which locks private.waitlist_line
-- first) is never missed by a confirmation running beside it.
create function private.waitlist_line_key(arrival bigint, referral_credits integer, status text)
returns bigint
language sql
stable
set search_path = ''
as $$
  select case when status = 'confirmed'
              then arrival - referral_credits::bigint * (select s.places_per_referral from private.waitlist_referral_settings s) end
$$;

revoke all on function private.waitlist_line_key(bigint, integer, text) from public, anon, authenticated, service_role;

-- The line row of an entry that is (or was) confirmed follows its status and credits: an arrival
-- at the first confirmation, the key on every change. Named to fire before waitlist_enqueue_messages
-- and waitlist_webhook_events (same-event triggers fire in name order), which read the counts.
create function private.waitlist_arrival()
returns trigger
language plpgsql
security definer
set search_path = ''
as $$
begin
  if new.status = 'pending' then
    return null;
  end if;
  if exists (select 1 from private.waitlist_line l where l.entry_id = new.id) then
    update private.waitlist_line l set line_key = private.waitlist_line_key(l.arrival, new.referral_credits, new.status)
     where l.entry_id = new.id and l.line_key is distinct from private.waitlist_line_key(l.arrival, new.referral_credits, new.status);
  else
    insert into private.waitlist_line (entry_id, arrival, line_key)
    select new.id, a.arrival, private.waitlist_line_key(a.arrival, new.referral_credits, new.status)
      from (select pg_catalog.nextval('private.waitlist_line_arrival') as arrival) a;
  end if;
  return null;
end
$$;

revoke all on function private.waitlist_arrival() from public, anon, authenticated, service_role;

create trigger waitlist_arrival
  after insert or update of status, referral_credits on public.waitlist
  for each row execute function private.waitlist_arrival();

-- Merges the counts' rows into one per bucket (dropping empty ones). One merge at a time; a merge
-- already running is skipped, never waited for. Inserts are never blocked: a row committed
-- meanwhile is left for the next merge.
create function private.waitlist_line_compact()
returns void
language plpgsql
volatile
security definer
set search_path = ''
as $$
begin
  if not pg_catalog.pg_try_advisory_xact_lock(pg_catalog.hashtext('waitlist line counts')) then
    return;
  end if;
  with gone as (
    delete from private.waitlist_line_counts c
     where (c.counter, c.bucket) in (
       select d.counter, d.bucket from private.waitlist_line_counts d
        group by d.counter, d.bucket having count(*) > 1 or sum(d.entries) = 0
     )
    returning c.counter, c.bucket, c.entries
  )
  insert into private.waitlist_line_counts (counter, bucket, entries)
  select g.counter, g.bucket, sum(g.entries) from gone g group by g.counter, g.bucket having sum(g.entries) <> 0;
end
$$;

revoke all on function private.waitlist_line_compact() from public, anon, authenticated, service_role;

-- What a statement changed in private.waitlist_line, as rows of counts: the keys it added and
-- removed per bucket (netted), and how many rows it added (negative: removed).
create function private.waitlist_line_count(added bigint[], removed bigint[], entries bigint)
returns void
language sql
volatile
security definer
set search_path = ''
as $$
  insert into private.waitlist_line_counts (counter, bucket, entries)
  select 'line', d.bucket, sum(d.entries)
    from (select private.waitlist_line_bucket(k) as bucket, 1 as entries from pg_catalog.unnest(added) k where k is not null
          union all
          select private.waitlist_line_bucket(k), -1 from pg_catalog.unnest(removed) k where k is not null) d
   group by d.bucket
  having sum(d.entries) <> 0
  union all
  select 'total', 0, entries where entries <> 0
$$;

revoke all on function private.waitlist_line_count(bigint[], bigint[], bigint) from public, anon, authenticated, service_role;

-- Once per statement (a rebuild or an invitation of thousands writes a handful of rows), with a
-- merge now and then so the rows stay about one per bucket.
create function private.waitlist_line_tally()
returns trigger
language plpgsql
security definer
set search_path = ''
as $$
begin
  if tg_op = 'INSERT' then
    perform private.waitlist_line_count(array(select n.line_key from new_rows n), '{}', (select count(*) from new_rows));
  elsif tg_op = 'DELETE' then
    perform private.waitlist_line_count('{}', array(select o.line_key from old_rows o), -(select count(*) from old_rows));
  else
    perform private.waitlist_line_count(array(select n.line_key from new_rows n), array(select o.line_key from old_rows o), 0);
  end if;
  if pg_catalog.random() < 0.05 then
    perform private.waitlist_line_compact();
  end if;
  return null;
end
$$;

revoke all on function private.waitlist_line_tally() from public, anon, authenticated, service_role;

create trigger waitlist_line_tally_insert
  after insert on private.waitlist_line
  referencing new table as new_rows
  for each statement execute function private.waitlist_line_tally();

create trigger waitlist_line_tally_update
  after update on private.waitlist_line
  referencing old table as old_rows new table as new_rows
  for each statement execute function private.waitlist_line_tally();

create trigger waitlist_line_tally_delete
  after delete on private.waitlist_line
  referencing old table as old_rows
  for each statement execute function private.waitlist_line_tally();

-- A confirmed entry's place in line (null for anyone else): the entries in the buckets before its
-- own, plus those before it inside its bucket (an index range), plus one.
create function private.waitlist_place(entry uuid)
returns bigint
language sql
stable
security definer
set search_path = ''
as $$
  select ((select coalesce(sum(c.entries), 0) from private.waitlist_line_counts c
            where c.counter = 'line' and c.bucket < private.waitlist_line_bucket(l.line_key))
          + (select count(*) from private.waitlist_line x
              where x.line_key >= private.waitlist_line_bucket(l.line_key) * private.waitlist_line_bucket_width()
                and (x.line_key, x.arrival) < (l.line_key, l.arrival))
          + 1)::bigint
    from private.waitlist_line l
   where l.entry_id = entry and l.line_key is not null
$$;

revoke all on function private.waitlist_place(uuid) from public, anon, authenticated, service_role;

-- 'line': how many are in line; 'total': how many have confirmed and are still on the list. As the
-- calling transaction sees them: two confirmations committing at the same moment may both count
-- the same total.
create function private.waitlist_line_total(counter text)
returns bigint
language sql
stable
security definer
set search_path = ''
as $$
  select coalesce(sum(c.entries), 0)::bigint from private.waitlist_line_counts c where c.counter = waitlist_line_total.counter
$$;

revoke all on function private.waitlist_line_total(text) from public, anon, authenticated, service_role;

-- Every key again and the counts from scratch: after a change of places_per_referral (the
-- waitlist_line_rekey trigger: a founder's rare update, one pass over the line), and after a bulk
-- load that bypassed the triggers (rows without a line row get arrivals in order of confirmation).
-- Confirmations wait for it; readers do not.
create function private.waitlist_line_rebuild()
returns void
language plpgsql
volatile
security definer
set search_path = ''
as $$
begin
  lock table private.waitlist_line in exclusive mode;
  insert into private.waitlist_line (entry_id, arrival, line_key)
  select n.id, n.arrival, private.waitlist_line_key(n.arrival, n.referral_credits, n.status)
    from (select w.id, w.referral_credits, w.status,
                 coalesce((select max(l.arrival) from private.waitlist_line l), 0)
                   + pg_catalog.row_number() over (order by coalesce(w.confirmed_at, w.created_at), w.created_at, w.id) as arrival
            from public.waitlist w
           where w.status <> 'pending' and not exists (select 1 from private.waitlist_line l where l.entry_id = w.id)) n;
  perform pg_catalog.setval('private.waitlist_line_arrival', greatest(m.arrival, q.last_value))
     from (select max(l.arrival) as arrival from private.waitlist_line l) m, private.waitlist_line_arrival q
    where m.arrival is not null;
  update private.waitlist_line l set line_key = private.waitlist_line_key(l.arrival, w.referral_credits, w.status)
    from public.waitlist w
   where w.id = l.entry_id and l.line_key is distinct from private.waitlist_line_key(l.arrival, w.referral_credits, w.status);
  -- The counts from scratch (nothing else writes them while the line is locked): also right after
  -- a change of the bucket width.
  delete from private.waitlist_line_counts;
  insert into private.waitlist_line_counts (counter, bucket, entries)
  select 'line', private.waitlist_line_bucket(l.line_key), count(*) from private.waitlist_line l where l.line_key is not null group by 2
  union all
  select 'total', 0, count(*) from private.waitlist_line l having count(*) > 0;
end
$$;

revoke all on function private.waitlist_line_rebuild() from public, anon, authenticated, service_role;

create function private.waitlist_line_rekey()
returns trigger
language plpgsql
security definer
set search_path = ''
as $$
begin
  perform private.waitlist_line_rebuild();
  return null;
end
$$;

revoke all on function private.waitlist_line_rekey() from public, anon, authenticated, service_role;

create trigger waitlist_line_rekey
  after update of places_per_referral on private.waitlist_referral_settings
  for each row when (old.places_per_referral is distinct from new.places_per_referral)
  execute function private.waitlist_line_rekey();

-- The head of the line, for the owner: place, name, e-mail and status of the next `n` to invite,
-- read from the line's index.
create or replace function public.waitlist_line_head(n integer default 20)
returns jsonb
language plpgsql
stable
security definer
set search_path = ''
as $$
declare
  head jsonb;
begin
  -- The limit is written into the statement so that it is planned with it: the index read in
  -- order. A limit given as a parameter is planned as a tenth of the line, which sorts it all.
  execute pg_catalog.format($head$
    select coalesce(pg_catalog.jsonb_agg(pg_catalog.jsonb_build_object(
             'place', h.place, 'id', w.id, 'name', w.name, 'email', w.email, 'project', w.project,
             'referral_credits', w.referral_credits, 'confirmed_at', w.confirmed_at
           ) order by h.place), '[]'::jsonb)
      from (select l.entry_id, pg_catalog.row_number() over (order by l.line_key, l.arrival) as place
              from (select x.entry_id, x.line_key, x.arrival from private.waitlist_line x
                     where x.line_key is not null order by x.line_key, x.arrival limit %s) l) h
      join public.waitlist w on w.id = h.entry_id$head$, greatest(0, least(n, 10000)))
    into head;
  return head;
end
$$;

create or replace function public.waitlist_invite_email(address text, dry_run boolean default false)
returns jsonb
language plpgsql
volatile
security definer
set search_path = ''
as $$
declare
  entry public.waitlist;
  place bigint;
begin
  perform pg_catalog.pg_advisory_xact_lock(pg_catalog.hashtext('waitlist invite'));
  select * into entry from public.waitlist w where w.email_key = pg_catalog.lower(waitlist_rules.normalize_email(address)) for update;
  if not found then
    return pg_catalog.jsonb_build_object('invited', false, 'reason', 'not on the list');
  end if;
  if entry.status <> 'confirmed' then
    return pg_catalog.jsonb_build_object('invited', false, 'reason', pg_catalog.format('status is %s', entry.status));
  end if;
  place := private.waitlist_place(entry.id);
  if not dry_run then
    update public.waitlist set status = 'invited' where id = entry.id;
    update private.waitlist_invitations set out_of_order = true where entry_id = entry.id and redeemed_at is null and expired_at is null;
  end if;
  return pg_catalog.jsonb_build_object('invited', not dry_run, 'place', place, 'name', entry.name, 'email', entry.email);
end
$$;

create or replace function private.waitlist_enqueue_messages()
returns trigger
language plpgsql
security definer
set search_path = ''
as $$
declare
  invitation private.waitlist_invitations;
  settings private.waitlist_invitation_settings;
begin
  if tg_op = 'INSERT' and new.status = 'pending' then
    insert into public.waitlist_outbox (entry_id, kind) values (new.id, 'confirmation_email');
  elsif new.status = 'confirmed' and (tg_op = 'INSERT' or old.status = 'pending') then
    -- The total as of this confirmation, from the line's counts (05_line.sql): no lock, so two
    -- confirmations committing at the same moment may both carry the same total.
    insert into public.waitlist_outbox (entry_id, kind, payload)
    values (new.id, 'slack_confirmed', pg_catalog.jsonb_build_object('total', private.waitlist_line_total('total')));
  elsif tg_op = 'UPDATE' and new.status = 'invited' and old.status = 'confirmed' then
    select * into strict settings from private.waitlist_invitation_settings;
    insert into private.waitlist_invitations (entry_id, invited_at, expires_at)
    values (new.id, new.invited_at, new.invited_at + settings.invitation_ttl)
    returning * into invitation;
    insert into public.waitlist_outbox (entry_id, kind, payload)
    values (new.id, 'invitation_email', pg_catalog.jsonb_build_object('invitation_id', invitation.id));
  elsif tg_op = 'UPDATE' and new.status = 'joined' and old.status = 'invited' then
    perform pg_catalog.pg_advisory_xact_lock(pg_catalog.hashtext('waitlist joined total'));
    insert into public.waitlist_outbox (entry_id, kind, payload)
    values (new.id, 'slack_joined', pg_catalog.jsonb_build_object(
      'invited_at', new.invited_at,
      'joined_at', new.joined_at,
      'joined', (select count(*) from private.waitlist_invitations i where i.redeemed_at is not null),
      'invited', (select count(distinct i.entry_id) from private.waitlist_invitations i)
    ));
  end if;
  return null;
end
$$;

create or replace function private.waitlist_webhook_events()
returns trigger
language plpgsql
security definer
set search_path = ''
as $$
begin
  if new.status = 'confirmed' and (tg_op = 'INSERT' or old.status = 'pending') then
    perform private.waitlist_enqueue_webhook('entry.confirmed', new.id, pg_catalog.jsonb_build_object(
      'place', private.waitlist_place(new.id),
      'referred_by', new.referred_by,
      'confirmed_at', new.confirmed_at
    ));
  elsif tg_op = 'UPDATE' and new.status = 'invited' and old.status = 'confirmed' then
    perform private.waitlist_enqueue_webhook('entry.invited', new.id, pg_catalog.jsonb_build_object(
      'invited_at', new.invited_at,
      'expires_at', (select i.expires_at from private.waitlist_invitations i
                      where i.entry_id = new.id and i.redeemed_at is null and i.expired_at is null
                      order by i.invited_at desc limit 1)
    ));
  elsif tg_op = 'UPDATE' and new.status = 'joined' and old.status = 'invited' then
    perform private.waitlist_enqueue_webhook('entry.joined', new.id, pg_catalog.jsonb_build_object(
      'invited_at', new.invited_at, 'joined_at', new.joined_at
    ));
  end if;
  if tg_op = 'UPDATE' and new.referral_credits > old.referral_credits then
    perform private.waitlist_enqueue_webhook('referral.credited', new.id, pg_catalog.jsonb_build_object(
      'referral_credits', new.referral_credits,
      'places_per_referral', (select s.places_per_referral from private.waitlist_referral_settings s),
      'place', private.waitlist_place(new.id)
    ));
  end if;
  return null;
end
$$;

create or replace function public.waitlist_me(token text)
returns jsonb
language plpgsql
volatile
security definer
set search_path = ''
as $$
declare
  held record;
  invitation private.waitlist_invitations;
begin
  perform private.waitlist_limit_network(
    'own_data', (select s.own_data_per_client from private.waitlist_referral_settings s), (select s.window_seconds from private.waitlist_confirmation_settings s),
    'Too many attempts from this network. Please wait a few minutes and try again.', 'calls'
  );
  select * into held from private.waitlist_token_entry(token, false);
  if (held.entry).id is null then
    return null;
  end if;
  if held.expired then
    return pg_catalog.jsonb_build_object('status', 'expired');
  end if;
  if (held.entry).status = 'pending' then
    return pg_catalog.jsonb_build_object('status', 'pending', 'confirm_by', (held.entry).confirm_by);
  end if;
  if (held.entry).status = 'invited' then
    select * into invitation from private.waitlist_invitations i where i.entry_id = (held.entry).id and i.redeemed_at is null and i.expired_at is null;
    return pg_catalog.jsonb_build_object('status', 'invited', 'invited_at', (held.entry).invited_at, 'invitation_expires_at', invitation.expires_at);
  end if;
  if (held.entry).status = 'joined' then
    return pg_catalog.jsonb_build_object('status', 'joined', 'joined_at', (held.entry).joined_at);
  end if;
  return pg_catalog.jsonb_build_object(
    'status', (held.entry).status,
    'place', private.waitlist_place((held.entry).id),
    'confirmed_total', private.waitlist_line_total('line'),
    'referrals', (held.entry).referral_credits,
    'referral_code', (held.entry).referral_code,
    'places_per_referral', (select s.places_per_referral from private.waitlist_referral_settings s)
  );
end
$$;

drop function private.waitlist_line();

select private.waitlist_line_rebuild();
