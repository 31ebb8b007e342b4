-- Place in line, referrals, and a person's own data (issue #18), all through the public key and
-- the e-mailed link's token; anon still has no SELECT, UPDATE or DELETE on any table.
--
-- 1. REFERRAL CODE. Every entry gets a public code (22 base64url characters: 132 bits of a SHA-256
--    over two random UUIDs) when it is inserted. It names nobody: it is random, not derived from
--    the address, and nothing answers who owns it. A sign-up may carry the code of the link it came
--    through in the write-only column `ref`: the trigger resolves it to `referred_by` and clears
--    it. An unknown or malformed code, or one of the same address (self-referral), counts for
--    nothing and the sign-up goes through the same way, so a code cannot be tested by signing up.
-- 2. CREDIT ONLY ONCE CONFIRMED. When a referred entry becomes confirmed, its referrer's
--    `referral_credits` goes up by one. It is a count, not a join: a referred person who later
--    erases their entry stays counted for the referrer, without anything naming them.
-- 3. PLACE. Among confirmed entries, in order of confirmation, each credit moves an entry up by
--    `places_per_referral` places (the site passes the number set in Sanity, default 5, clamped to
--    0..1000 here: it changes only the answer the caller sees, never stored data). Ties go to the
--    earlier confirmation.
-- 4. OWN DATA. waitlist_me(token, places) answers the holder's place, credits and code;
--    waitlist_export_me(token) everything stored about them (their entry and its messages);
--    waitlist_delete_me(token) erases the entry now (its messages go with it, on delete cascade;
--    the people they referred keep their entries, unlinked). The token is the one the
--    confirmation e-mail carries (only its SHA-256 is stored, 20261123160000_waitlist_confirmation.sql):
--    whoever can open that e-mail is the person. Each answers null / false alike for an unknown,
--    malformed or expired-and-unconfirmed token, and each is rate limited per network.
--
-- Never edit this file once applied; change settings with an update in a later migration.

create table private.waitlist_referral_settings (
  only_row boolean primary key default true check (only_row),
  own_data_per_client integer not null check (own_data_per_client > 0)
);
comment on table private.waitlist_referral_settings is
  'Limits of the own-data functions (one row). Change them with an update in a migration.';
insert into private.waitlist_referral_settings values (true, 60);

alter table private.waitlist_api_attempts drop constraint waitlist_api_attempts_action_check;
alter table private.waitlist_api_attempts
  add constraint waitlist_api_attempts_action_check check (action in ('confirm', 'request_link', 'own_data'));

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

-- A volatile default gives every existing row its own code in the table rewrite (an UPDATE would
-- re-check old rows against rules they predate); new rows get theirs from the trigger below.
alter table public.waitlist
  add column referral_code text not null default private.waitlist_new_referral_code() constraint waitlist_referral_code_format check (referral_code ~ '^[A-Za-z0-9_-]{22}$'),
  add column referred_by uuid references public.waitlist (id) on delete set null,
  add column referral_credits integer not null default 0 constraint waitlist_referral_credits_count check (referral_credits >= 0),
  -- Write-only: the code of the link a sign-up came through; resolved and cleared by the trigger.
  add column ref text constraint waitlist_ref_consumed check (ref is null);

-- The default would run as the API's role, which may not call private functions: the trigger sets it.
alter table public.waitlist alter column referral_code drop default;

comment on column public.waitlist.referral_code is 'Public code of this entry''s referral link (/waitlist?ref=…); random, names nobody.';
comment on column public.waitlist.referred_by is 'The entry whose referral link this sign-up came through (null when none, unknown or self).';
comment on column public.waitlist.referral_credits is 'How many people who came through this entry''s link have confirmed (kept when they erase themselves).';

create unique index waitlist_referral_code_unique on public.waitlist (referral_code);
create index waitlist_referred_by on public.waitlist (referred_by) where referred_by is not null;

grant insert (ref) on table public.waitlist to anon;

-- Runs after waitlist_clean has normalised the address (triggers fire in name order).
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
    if found and referrer.email_key <> pg_catalog.lower(new.email) then
      new.referred_by := referrer.id;
    end if;
  end if;
  new.ref := null;
  return new;
end
$$;

create trigger waitlist_referral
  before insert on public.waitlist
  for each row execute function private.waitlist_referral();

create function private.waitlist_referral_credit()
returns trigger
language plpgsql
security definer
set search_path = ''
as $$
begin
  if new.status = 'confirmed' and new.referred_by is not null and (tg_op = 'INSERT' or old.status is distinct from 'confirmed') then
    update public.waitlist set referral_credits = referral_credits + 1 where id = new.referred_by;
  end if;
  return null;
end
$$;

create trigger waitlist_referral_credit
  after insert or update of status on public.waitlist
  for each row execute function private.waitlist_referral_credit();

-- ---------------------------------------------------------------------------
-- The holder of a token

-- The entry whose e-mailed token this is, locked when `for_update`; null for anything else. An
-- entry still pending after its link expired has no owner yet: its token opens nothing.
create function private.waitlist_entry_for_token(token text, for_update boolean default false)
returns public.waitlist
language plpgsql
volatile
security definer
set search_path = ''
as $$
declare
  entry public.waitlist;
  wanted_hash text;
begin
  perform private.waitlist_limit_action('own_data', (select s.own_data_per_client from private.waitlist_referral_settings s));
  if token is null or token !~ '^[A-Za-z0-9_-]{43}$' then
    return null;
  end if;
  wanted_hash := pg_catalog.encode(pg_catalog.sha256(pg_catalog.convert_to(token, 'UTF8')), 'hex');
  if for_update then
    select * into entry from public.waitlist w where w.token_hash = wanted_hash for update;
  else
    select * into entry from public.waitlist w where w.token_hash = wanted_hash;
  end if;
  if not found or (entry.status = 'pending' and entry.token_expires_at <= pg_catalog.now()) then
    return null;
  end if;
  return entry;
end
$$;

-- Place among confirmed entries: see the header. Null for an entry that is not confirmed.
create function private.waitlist_place(entry_id uuid, places_per_referral integer)
returns bigint
language sql
stable
security definer
set search_path = ''
as $$
  with confirmed as (
    select w.id, w.referral_credits,
           pg_catalog.row_number() over (order by coalesce(w.confirmed_at, w.created_at), w.created_at, w.id) as arrival
      from public.waitlist w
     where w.status = 'confirmed'
  ), ranked as (
    select c.id,
           pg_catalog.row_number() over (
             order by c.arrival - c.referral_credits::bigint * greatest(0, least(coalesce(places_per_referral, 5), 1000)), c.arrival
           ) as place
      from confirmed c
  )
  select r.place from ranked r where r.id = entry_id
$$;

create function public.waitlist_me(token text, places_per_referral integer default 5)
returns jsonb
language plpgsql
volatile
security definer
set search_path = ''
as $$
declare
  entry public.waitlist := private.waitlist_entry_for_token(token);
begin
  if entry.id is null then
    return null;
  end if;
  return pg_catalog.jsonb_build_object(
    'status', entry.status,
    'place', private.waitlist_place(entry.id, places_per_referral),
    'confirmed_total', (select count(*) from public.waitlist w where w.status = 'confirmed'),
    'referrals', entry.referral_credits,
    'referral_code', entry.referral_code
  );
end
$$;
comment on function public.waitlist_me(text, integer) is
  'The token holder''s place among confirmed entries, referral credits and referral code; null for any other token. Rate limited per network.';

create function public.waitlist_export_me(token text)
returns jsonb
language plpgsql
volatile
security definer
set search_path = ''
as $$
declare
  entry public.waitlist := private.waitlist_entry_for_token(token);
begin
  if entry.id is null then
    return null;
  end if;
  -- Every column, so a column added later is in the export without a change here; left out: the
  -- link token's hash (a secret's fingerprint, not data about the person), the address's derived
  -- lookup key, the write-only `ref`, and the referrer's id (another person), replaced by a yes/no.
  return pg_catalog.jsonb_build_object(
    'entry', (pg_catalog.to_jsonb(entry) - array['token_hash', 'email_key', 'ref', 'referred_by'])
             || pg_catalog.jsonb_build_object('came_through_a_referral_link', entry.referred_by is not null),
    'messages', (
      select coalesce(pg_catalog.jsonb_agg(pg_catalog.jsonb_build_object(
               'kind', o.kind, 'status', o.status, 'attempts', o.attempts, 'created_at', o.created_at, 'sent_at', o.sent_at
             ) order by o.created_at), '[]'::jsonb)
        from public.waitlist_outbox o
       where o.entry_id = entry.id
    ),
    'exported_at', pg_catalog.now()
  );
end
$$;
comment on function public.waitlist_export_me(text) is
  'Everything stored about the token holder (their entry and its messages), as JSON; null for any other token. Rate limited per network.';

create function public.waitlist_delete_me(token text)
returns boolean
language plpgsql
volatile
security definer
set search_path = ''
as $$
declare
  entry public.waitlist := private.waitlist_entry_for_token(token, true);
begin
  if entry.id is null then
    return false;
  end if;
  delete from public.waitlist w where w.id = entry.id;
  return true;
end
$$;
comment on function public.waitlist_delete_me(text) is
  'Erases the token holder''s entry and its messages now; their referrer keeps the credit. False for any other token. Rate limited per network.';

revoke all on all functions in schema private from public, anon, authenticated, service_role;
revoke all on function public.waitlist_me(text, integer), public.waitlist_export_me(text), public.waitlist_delete_me(text)
  from public, anon, authenticated, service_role;
grant execute on function public.waitlist_me(text, integer), public.waitlist_export_me(text), public.waitlist_delete_me(text)
  to anon, service_role;
