-- The line and referrals: a person's place, and the credit their referral link earns.
--
-- Guarantees:
--   * Every entry gets a public referral code (22 base64url characters, random, naming nobody). A
--     sign-up may carry the code it came through in the write-only column ref: the trigger
--     resolves it to referred_by and clears it. An unknown code, or one of the same mailbox
--     (self-referral, compared by waitlist_rules.mailbox_key), counts for nothing, and the sign-up
--     goes through the same way, so a code cannot be tested by signing up.
--   * A referral is credited once, when the referred person first confirms, and once per mailbox
--     however spelt and however often it erases itself and comes back
--     (private.waitlist_referral_ledger: a salted fingerprint, no address, no name).
--   * The line (private.waitlist_line) is the one order of confirmed people: by confirmation, each
--     credit moving an entry up places_per_referral places. The place a person is shown and the
--     order of invitations both read it, and nothing else.
--
-- TypeScript twins: components/waitlist/my-place.tsx (the place shown) and tools/owner/console/
-- server.ts (the head of the line).

create table private.waitlist_referral_settings (
  only_row boolean primary key default true check (only_row),
  own_data_per_client integer not null check (own_data_per_client > 0),
  places_per_referral integer not null default 5 check ((places_per_referral >= 0) and (places_per_referral <= 1000))
);

comment on table private.waitlist_referral_settings is
  'Limits of the own-data functions (one row). Change them with an update in a migration.';

comment on column private.waitlist_referral_settings.places_per_referral is
  'How many places each confirmed referral moves an entry up the line.';

revoke all on table private.waitlist_referral_settings from public, anon, authenticated, service_role;

create table private.waitlist_referral_ledger (
  referrer_id uuid not null references public.waitlist (id) on delete cascade,
  mailbox_hash text not null check (mailbox_hash ~ '^[0-9a-f]{64}$'),
  referred_id uuid references public.waitlist (id) on delete set null,
  credited_at timestamptz not null default now(),
  primary key (referrer_id, mailbox_hash)
);

comment on table private.waitlist_referral_ledger is
  'One row per referral credit: the referrer, a salted fingerprint of the referred mailbox (one credit per mailbox, ever) and the referred entry while it exists.';

revoke all on table private.waitlist_referral_ledger from public, anon, authenticated, service_role;

create function private.waitlist_new_referral_code()
returns text
language sql
volatile
set search_path = ''
as $$
  select pg_catalog.translate(
    pg_catalog.left(pg_catalog.encode(pg_catalog.sha256(pg_catalog.uuid_send(gen_random_uuid()) || pg_catalog.uuid_send(gen_random_uuid())), 'base64'), 22),
    '+/', '-_'
  )
$$;

revoke all on function private.waitlist_new_referral_code() from public, anon, authenticated, service_role;

create function private.waitlist_referral()
returns trigger
language plpgsql
security definer
set search_path = ''
as $$
declare
  referrer public.waitlist;
begin
  new.referral_code := private.waitlist_new_referral_code();
  new.referred_by := null;
  if new.ref ~ '^[A-Za-z0-9_-]{22}$' then
    select * into referrer from public.waitlist w where w.referral_code = new.ref;
    if found and waitlist_rules.mailbox_key(referrer.email) <> waitlist_rules.mailbox_key(new.email) then
      new.referred_by := referrer.id;
    end if;
  end if;
  new.ref := null;
  return new;
end
$$;

revoke all on function private.waitlist_referral() from public, anon, authenticated, service_role;

create trigger waitlist_referral
  before insert on public.waitlist
  for each row execute function private.waitlist_referral();

-- A referral is credited when the referred person first confirms, not when they come back in line.
create function private.waitlist_referral_credit()
returns trigger
language plpgsql
security definer
set search_path = ''
as $$
begin
  if new.status = 'confirmed' and new.referred_by is not null and (tg_op = 'INSERT' or old.status = 'pending') then
    insert into private.waitlist_referral_ledger (referrer_id, mailbox_hash, referred_id)
    values (new.referred_by, private.waitlist_mailbox_hash('referral ' || new.referred_by::text, new.email), new.id)
    on conflict do nothing;
    if found then
      update public.waitlist set referral_credits = referral_credits + 1 where id = new.referred_by;
    end if;
  end if;
  return null;
end
$$;

revoke all on function private.waitlist_referral_credit() from public, anon, authenticated, service_role;

create trigger waitlist_referral_credit
  after insert or update of status on public.waitlist
  for each row execute function private.waitlist_referral_credit();

-- Every confirmed entry's place: in order of confirmation, each credit moving an entry up
-- places_per_referral places, ties to the earlier confirmation. The place a person is shown and the
-- order of invitations both read this, and nothing else.
create function private.waitlist_line()
returns table (entry_id uuid, place bigint)
language sql
stable
security definer
set search_path = ''
as $$
  with settings as (
    select s.places_per_referral from private.waitlist_referral_settings s
  ), confirmed as (
    select w.id, w.referral_credits,
           pg_catalog.row_number() over (order by coalesce(w.confirmed_at, w.created_at), w.created_at, w.id) as arrival
      from public.waitlist w
     where w.status = 'confirmed'
  )
  select c.id, pg_catalog.row_number() over (
           order by c.arrival - c.referral_credits::bigint * (select settings.places_per_referral from settings), c.arrival
         )
    from confirmed c
$$;

revoke all on function private.waitlist_line() from public, anon, authenticated, service_role;

-- The head of the line, for the owner: place, name, e-mail and status of the next `n` to invite.
create function public.waitlist_line_head(n integer default 20)
returns jsonb
language sql
stable
security definer
set search_path = ''
as $$
  select coalesce(pg_catalog.jsonb_agg(pg_catalog.jsonb_build_object(
           'place', l.place, 'id', w.id, 'name', w.name, 'email', w.email, 'project', w.project,
           'referral_credits', w.referral_credits, 'confirmed_at', w.confirmed_at
         ) order by l.place), '[]'::jsonb)
    from (select * from private.waitlist_line() x order by x.place limit greatest(0, least(n, 10000))) l
    join public.waitlist w on w.id = l.entry_id
$$;

revoke all on function public.waitlist_line_head(integer) from public, anon, authenticated, service_role;
grant execute on function public.waitlist_line_head(integer) to service_role;
