-- waitlist:export at a million entries (issue #51): several pages at once.
--   * waitlist_export_page takes an upper end (upto_created_at, upto_id) beside its lower one, so a
--     page can be asked for between two known keys before the page before it has arrived.
--   * waitlist_export_bounds names those keys: where each of the next pages ends.
-- The page function gains two arguments: a new function, so the old one is dropped first.

drop function public.waitlist_export_page(timestamptz, uuid, integer);

-- The arguments waitlist_export_page and waitlist_export_bounds share, refused alike.
create function private.waitlist_export_arguments(after_created_at timestamptz, after_id uuid, page_size integer)
returns void
language plpgsql
immutable
set search_path = ''
as $$
begin
  if page_size is null or page_size < 1 or page_size > 50000 then
    raise exception 'page_size must be between 1 and 50000' using errcode = '22023';
  end if;
  if (after_created_at is null) <> (after_id is null) then
    raise exception 'after_created_at and after_id go together' using errcode = '22023';
  end if;
end
$$;

revoke all on function private.waitlist_export_arguments(timestamptz, uuid, integer) from public, anon, authenticated, service_role;

-- A page of the list in (created_at, id) order after the given entry (null: from the start) and
-- up to and including upto_* (null: to the end), for waitlist:list and waitlist:export. Each entry
-- is an array of its values in the order of LISTED_FIELDS (tools/owner/owner.ts), its referrer's
-- e-mail after referred_by: half the bytes of objects, and json (text built once) rather than
-- jsonb, which is slower to build: 5,000 entries in about 70 ms here instead of 200 ms. Both ends
-- are row comparisons with no OR and no null test, so a plan made once for any arguments still
-- reads the index from the lower key and stops at the upper one.
create function public.waitlist_export_page(
  after_created_at timestamptz default null,
  after_id uuid default null,
  page_size integer default 5000,
  upto_created_at timestamptz default null,
  upto_id uuid default null
)
returns json
language plpgsql
stable
security definer
set search_path = ''
as $$
begin
  perform private.waitlist_export_arguments(after_created_at, after_id, page_size);
  if (upto_created_at is null) <> (upto_id is null) then
    raise exception 'upto_created_at and upto_id go together' using errcode = '22023';
  end if;
  return coalesce((
    select pg_catalog.json_agg(pg_catalog.json_build_array(
             p.id, p.created_at, p.status, p.confirmed_at, p.invited_at, p.joined_at, p.name, p.email, p.project,
             p.utm_source, p.utm_medium, p.utm_campaign, p.referrer_host, p.landing_path, p.flag,
             p.referral_credits, p.referred_by, r.email, p.updates, p.updates_opted_in_at, p.updates_stopped_at, p.language
           ) order by p.created_at, p.id)
      from (select w.*
              from public.waitlist w
             where (w.created_at, w.id) > (coalesce(after_created_at, '-infinity'), coalesce(after_id, '00000000-0000-0000-0000-000000000000'))
               and (w.created_at, w.id) <= (coalesce(upto_created_at, 'infinity'), coalesce(upto_id, 'ffffffff-ffff-ffff-ffff-ffffffffffff'))
             order by w.created_at, w.id
             limit page_size) p
      left join public.waitlist r on r.id = p.referred_by
  ), '[]'::json);
end
$$;

comment on function public.waitlist_export_page(timestamptz, uuid, integer, timestamptz, uuid) is
  'Up to page_size entries (1 to 50,000) after (after_created_at, after_id) and up to and including (upto_created_at, upto_id), oldest first, as one json array of arrays (id, created_at, status, confirmed_at, invited_at, joined_at, name, email, project, utm_source, utm_medium, utm_campaign, referrer_host, landing_path, flag, referral_credits, referred_by, the referrer''s email, updates, updates_opted_in_at, updates_stopped_at, language): keyset pages of the whole list for waitlist:list and waitlist:export. service_role only.';

revoke all on function public.waitlist_export_page(timestamptz, uuid, integer, timestamptz, uuid) from public, anon, authenticated, service_role;
grant execute on function public.waitlist_export_page(timestamptz, uuid, integer, timestamptz, uuid) to service_role;

-- Where the next pages end: the key (created_at, id) of the page_size-th entry after the given one
-- (null: from the start), of the 2 * page_size-th, and so on, at most `pages` of them. With them
-- waitlist:export asks for several pages at once, each between two keys, instead of one after the
-- other: the database builds a page's json on one core. A call reads at most page_size * pages
-- keys of the index (and no row), however long the list.
create function public.waitlist_export_bounds(
  after_created_at timestamptz default null,
  after_id uuid default null,
  page_size integer default 5000,
  pages integer default 40
)
returns json
language plpgsql
stable
security definer
set search_path = ''
as $$
begin
  perform private.waitlist_export_arguments(after_created_at, after_id, page_size);
  if pages is null or pages < 1 or pages > 1000 then
    raise exception 'pages must be between 1 and 1000' using errcode = '22023';
  end if;
  return coalesce((
    select pg_catalog.json_agg(pg_catalog.json_build_array(k.created_at, k.id) order by k.n)
      from (select s.created_at, s.id, pg_catalog.row_number() over (order by s.created_at, s.id) as n
              from (select w.created_at, w.id
                      from public.waitlist w
                     where (w.created_at, w.id) > (coalesce(after_created_at, '-infinity'), coalesce(after_id, '00000000-0000-0000-0000-000000000000'))
                     order by w.created_at, w.id
                     limit page_size::bigint * pages) s) k
     where k.n % page_size = 0
  ), '[]'::json);
end
$$;

comment on function public.waitlist_export_bounds(timestamptz, uuid, integer, integer) is
  'The keys [created_at, id] of the page_size-th, 2 * page_size-th, ... entry after (after_created_at, after_id), oldest first, at most pages (1 to 1,000) of them: where the next pages of waitlist_export_page end, so waitlist:export can ask for several at once. service_role only.';

revoke all on function public.waitlist_export_bounds(timestamptz, uuid, integer, integer) from public, anon, authenticated, service_role;
grant execute on function public.waitlist_export_bounds(timestamptz, uuid, integer, integer) to service_role;
