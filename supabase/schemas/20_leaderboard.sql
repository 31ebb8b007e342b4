-- The opt-in leaderboard (issue #69): the top 20 by counted referrals, of those who asked to be on
-- it, under the name they chose.
--
-- Guarantees:
--   * Nobody is on the board unless they opted in from their own page
--     (public.waitlist_leaderboard_me, the holder of an e-mailed link): public.waitlist.board_name
--     is null until then, and null again when they opt out; leaving the list deletes the row.
--   * The name shown is the person's choice: their initials (from the name they signed up with:
--     "Ada Lovelace" is "A. L.") by default, or a nickname of 2 to 24 characters that follows the
--     plain-text rule (waitlist_rules.clean_text and plain_text, 01_rules.sql), holds none of
--     < > @ or an address ("://", "www."), and none of the founders' blocked words
--     (private.waitlist_board_blocklist, compared without case, compatibility forms or punctuation:
--     private.waitlist_board_fold). Otherwise WLB01 (HTTP 400) names the rule. Never an e-mail.
--   * The board is read by the site's server when the static page is refreshed
--     (public.waitlist_leaderboard, the service role's): an index range of the opted-in (the partial
--     index waitlist_leaderboard), never a sort of the list. A founder hides an entry
--     (public.waitlist_leaderboard_hide): off the board at the next refresh, still opted in.
--   * A person's rank among the opted-in and visible is counted from the same index.
--   * The public key reads none of it but the holder's own choice and rank; the share image
--     (public.waitlist_share_name) names only someone opted in and not hidden.
--
-- TypeScript twins: components/waitlist/leaderboard-choice.tsx (the own page's side),
-- components/waitlist/leaderboard.ts (the page's read), tools/owner/tasks.ts (the
-- founders').

create table private.waitlist_board_blocklist (
  word text primary key check (word ~ '^[a-z0-9]{2,40}$')
);

comment on table private.waitlist_board_blocklist is
  'Words the founders refuse in a leaderboard nickname, folded (private.waitlist_board_fold): a nickname containing one is refused. Kept with `npm run waitlist:leaderboard -- block <word>`.';

revoke all on table private.waitlist_board_blocklist from public, anon, authenticated, service_role;

-- The first words no nickname may hold: the product's name and words that pass for its team.
insert into private.waitlist_board_blocklist (word) values
  ('admin'),
  ('heardly'),
  ('moderator'),
  ('official'),
  ('support');

-- The ones who opted in and are not hidden, by counted referrals, the earlier opt-in first.
create index waitlist_leaderboard on public.waitlist (referral_credits desc, board_at, id) where board_name is not null;

-- A nickname as the blocklist compares it: NFKC (fullwidth and compatibility forms to plain ones),
-- lower case, letters and digits only, so "A.d-M I n" is "admin".
create function private.waitlist_board_fold(name text)
returns text
language sql
immutable
parallel safe
set search_path = ''
return pg_catalog.regexp_replace(pg_catalog.lower(pg_catalog.normalize(name, 'NFKC')), '[^a-z0-9\u00c0-\uffff]', '', 'g');

revoke all on function private.waitlist_board_fold(text) from public, anon, authenticated, service_role;

-- "Ada Lovelace" -> "A. L."; one word -> "A."; the first character of the first and last word.
create function private.waitlist_initials(name text)
returns text
language sql
immutable
parallel safe
set search_path = ''
return (
  select case
           when pg_catalog.cardinality(w) = 0 then '?'
           when pg_catalog.cardinality(w) = 1 then pg_catalog.upper(pg_catalog.left(w[1], 1)) || '.'
           else pg_catalog.upper(pg_catalog.left(w[1], 1)) || '. ' || pg_catalog.upper(pg_catalog.left(w[pg_catalog.cardinality(w)], 1)) || '.'
         end
    from (select pg_catalog.array_remove(pg_catalog.regexp_split_to_array(waitlist_rules.clean_text(name), '\s+'), '') as w) s
);

revoke all on function private.waitlist_initials(text) from public, anon, authenticated, service_role;

-- The nickname as stored, or WLB01 naming the rule it breaks.
create function private.waitlist_board_nickname(nickname text)
returns text
language plpgsql
stable
security definer
set search_path = ''
as $$
declare
  cleaned text := waitlist_rules.clean_text(coalesce(nickname, ''));
  folded text;
begin
  if pg_catalog.char_length(cleaned) not between 2 and 24 then
    raise exception 'a nickname is 2 to 24 characters' using errcode = 'WLB01';
  end if;
  if not waitlist_rules.plain_text(cleaned) then
    raise exception 'a nickname may not contain control or text-direction characters' using errcode = 'WLB01';
  end if;
  if cleaned ~ '[<>@]' or pg_catalog.strpos(pg_catalog.lower(cleaned), '://') > 0 or pg_catalog.strpos(pg_catalog.lower(cleaned), 'www.') > 0 then
    raise exception 'a nickname may not contain <, >, @ or an address' using errcode = 'WLB01';
  end if;
  folded := private.waitlist_board_fold(cleaned);
  if exists (select 1 from private.waitlist_board_blocklist b where pg_catalog.strpos(folded, b.word) > 0) then
    raise exception 'that nickname is not allowed on the leaderboard' using errcode = 'WLB01';
  end if;
  return cleaned;
end
$$;

revoke all on function private.waitlist_board_nickname(text) from public, anon, authenticated, service_role;

-- A person's rank among those on the board (opted in, not hidden): 1 + those with more counted
-- referrals, + those with as many who opted in earlier. Two index ranges.
create function private.waitlist_board_rank(person public.waitlist)
returns bigint
language plpgsql
stable
security definer
set search_path = ''
as $$
begin
  if person.board_name is null or person.board_hidden then
    return null;
  end if;
  return 1
    + (select pg_catalog.count(*) from public.waitlist w
        where w.board_name is not null and not w.board_hidden and w.referral_credits > person.referral_credits)
    + (select pg_catalog.count(*) from public.waitlist w
        where w.board_name is not null and not w.board_hidden and w.referral_credits = person.referral_credits
          and (w.board_at, w.id) < (person.board_at, person.id));
end
$$;

revoke all on function private.waitlist_board_rank(public.waitlist) from public, anon, authenticated, service_role;

-- What the own page shows of the board (waitlist_me, 08_own_data.sql, and the choice below).
create function private.waitlist_board_state(person public.waitlist)
returns jsonb
language plpgsql
stable
security definer
set search_path = ''
as $$
begin
  return pg_catalog.jsonb_build_object(
    'on_board', person.board_name is not null,
    'name', person.board_name,
    'initials', private.waitlist_initials(person.name),
    'hidden', person.board_hidden,
    'rank', private.waitlist_board_rank(person)
  );
end
$$;

revoke all on function private.waitlist_board_state(public.waitlist) from public, anon, authenticated, service_role;

-- The holder's choice, from their own page: choice null reads it, 'join' opts in (under `nickname`,
-- or their initials when it is null or blank), 'leave' opts out. Answers {"on_board", "name",
-- "initials", "rank", "hidden"}; null for a token that opens nothing or an entry not yet confirmed.
-- Rate limited per network.
create function public.waitlist_leaderboard_me(token text, choice text default null, nickname text default null)
returns jsonb
language plpgsql
volatile
security definer
set search_path = ''
as $$
declare
  held public.waitlist;
  person public.waitlist;
begin
  if choice is not null and choice not in ('join', 'leave') then
    raise exception 'choice is join, leave or null' using errcode = '22023';
  end if;
  held := private.waitlist_entry_for_token(token);
  if held.id is null or held.status = 'pending' then
    return null;
  end if;
  if choice = 'join' then
    update public.waitlist w
       set board_name = case when public.waitlist_trim(coalesce(nickname, '')) = '' then private.waitlist_initials(w.name)
                             else private.waitlist_board_nickname(nickname) end,
           board_at = coalesce(w.board_at, pg_catalog.now())
     where w.id = held.id
    returning * into person;
  elsif choice = 'leave' then
    update public.waitlist w set board_name = null, board_at = null where w.id = held.id
    returning * into person;
  else
    person := held;
  end if;
  return private.waitlist_board_state(person);
end
$$;

comment on function public.waitlist_leaderboard_me(text, text, text) is
  'The token holder''s leaderboard choice: read (choice null), join (under a nickname, or their initials), leave; {on_board, name, initials, hidden, rank}; null for any other token or a pending entry. A nickname that breaks the rule raises WLB01. Rate limited per network.';

revoke all on function public.waitlist_leaderboard_me(text, text, text) from public, anon, authenticated, service_role;
grant execute on function public.waitlist_leaderboard_me(text, text, text) to anon, service_role;

-- The board, for the static page's refresh (the site's server): the top max_rows (at most 100) of
-- those opted in and not hidden, by counted referrals, the earlier opt-in first. Names and counts
-- only: never an address or an id. An index range.
create function public.waitlist_leaderboard(max_rows integer default 20)
returns table (rank integer, name text, referrals integer)
language sql
stable
security definer
set search_path = ''
as $$
  select (pg_catalog.row_number() over (order by b.referral_credits desc, b.board_at, b.id))::integer, b.board_name, b.referral_credits
    from (select w.referral_credits, w.board_at, w.id, w.board_name
            from public.waitlist w
           where w.board_name is not null and not w.board_hidden
           order by w.referral_credits desc, w.board_at, w.id
           limit least(greatest(coalesce(max_rows, 20), 1), 100)) b
   order by 1
$$;

comment on function public.waitlist_leaderboard(integer) is
  'The leaderboard: the top max_rows (1 to 100, default 20) who opted in and are not hidden, as {rank, name, referrals}. service_role only: the site''s server reads it when the page is refreshed.';

revoke all on function public.waitlist_leaderboard(integer) from public, anon, authenticated, service_role;
grant execute on function public.waitlist_leaderboard(integer) to service_role;

-- The founders' view (the console): the top max_rows opted in, hidden ones included and marked,
-- with who they are, so a founder can hide or show each.
create function public.waitlist_leaderboard_entries(max_rows integer default 40)
returns table (entry_id uuid, email text, name text, board_name text, referrals integer, hidden boolean, board_at timestamptz)
language sql
stable
security definer
set search_path = ''
as $$
  select w.id, w.email, w.name, w.board_name, w.referral_credits, w.board_hidden, w.board_at
    from public.waitlist w
   where w.board_name is not null
   order by w.referral_credits desc, w.board_at, w.id
   limit least(greatest(coalesce(max_rows, 40), 1), 200)
$$;

comment on function public.waitlist_leaderboard_entries(integer) is
  'The opted-in entries at the top of the leaderboard, hidden ones included, with their e-mail, for the founders'' console. service_role only.';

revoke all on function public.waitlist_leaderboard_entries(integer) from public, anon, authenticated, service_role;
grant execute on function public.waitlist_leaderboard_entries(integer) to service_role;

-- A founder hides (true) or shows again (false) an entry on the board. Answers {entry, hidden,
-- changed}; null for an entry that is not opted in.
create function public.waitlist_leaderboard_hide(entry uuid, hide boolean)
returns jsonb
language plpgsql
volatile
security definer
set search_path = ''
as $$
declare
  person public.waitlist;
begin
  if hide is null then
    raise exception 'hide must be true or false' using errcode = '22004';
  end if;
  update public.waitlist w set board_hidden = hide
   where w.id = waitlist_leaderboard_hide.entry and w.board_name is not null and w.board_hidden is distinct from hide
  returning * into person;
  if found then
    return pg_catalog.jsonb_build_object('entry', person.id, 'hidden', person.board_hidden, 'changed', true);
  end if;
  select * into person from public.waitlist w where w.id = waitlist_leaderboard_hide.entry and w.board_name is not null;
  if not found then
    return null;
  end if;
  return pg_catalog.jsonb_build_object('entry', person.id, 'hidden', person.board_hidden, 'changed', false);
end
$$;

comment on function public.waitlist_leaderboard_hide(uuid, boolean) is
  'For the owner''s commands (service role): hides (true) or shows (false) an opted-in entry on the leaderboard; {entry, hidden, changed}; null when the entry is not opted in.';

revoke all on function public.waitlist_leaderboard_hide(uuid, boolean) from public, anon, authenticated, service_role;
grant execute on function public.waitlist_leaderboard_hide(uuid, boolean) to service_role;

-- The founders' blocklist: adds and removes words (folded), answers the list after.
create function public.waitlist_leaderboard_blocklist(add_words text[] default '{}', remove_words text[] default '{}')
returns text[]
language plpgsql
volatile
security definer
set search_path = ''
as $$
begin
  if exists (select 1 from pg_catalog.unnest(coalesce(add_words, '{}')) a where private.waitlist_board_fold(a) !~ '^[a-z0-9]{2,40}$') then
    raise exception 'a blocked word is 2 to 40 letters or digits' using errcode = '22023';
  end if;
  delete from private.waitlist_board_blocklist b where b.word in (select private.waitlist_board_fold(r) from pg_catalog.unnest(coalesce(remove_words, '{}')) r);
  insert into private.waitlist_board_blocklist (word)
  select distinct private.waitlist_board_fold(a) from pg_catalog.unnest(coalesce(add_words, '{}')) a
  on conflict do nothing;
  return array(select b.word from private.waitlist_board_blocklist b order by b.word);
end
$$;

comment on function public.waitlist_leaderboard_blocklist(text[], text[]) is
  'For the owner''s commands (service role): adds and removes words of the leaderboard''s nickname blocklist; answers the list.';

revoke all on function public.waitlist_leaderboard_blocklist(text[], text[]) from public, anon, authenticated, service_role;
grant execute on function public.waitlist_leaderboard_blocklist(text[], text[]) to service_role;

-- The share image's name (/og/…/waitlist?ref=): the board name of the code's holder when they are
-- on the board (opted in, not hidden), else null, so an image names nobody who did not opt in.
create function public.waitlist_share_name(code text)
returns text
language sql
stable
security definer
set search_path = ''
as $$
  select w.board_name from public.waitlist w
   where w.referral_code = waitlist_share_name.code and w.board_name is not null and not w.board_hidden
$$;

comment on function public.waitlist_share_name(text) is
  'The leaderboard name of the referral code''s holder when they opted in and are not hidden, else null: what a share image may name. service_role only.';

revoke all on function public.waitlist_share_name(text) from public, anon, authenticated, service_role;
grant execute on function public.waitlist_share_name(text) to service_role;
