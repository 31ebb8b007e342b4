-- Campaign versions' results (issue #55): sign-ups and confirmations per campaign version, for the
-- founders' console.
--
-- What a sign-up records of its campaign: the campaign tags (utm_source, utm_campaign) and the path
-- of the visit's first page (landing_path), all in 02_waitlist.sql, written by
-- components/waitlist/source.ts. A campaign version is shown on the first page of a visit whose
-- address carries its tags (sanity/variants/live-campaigns.ts campaignVersionsFor), never on a later one, so
-- the sign-ups it was shown to are exactly those with its tags that landed on one of its pages.
-- Nothing about the version itself is stored: the console sends the published versions as
-- "audiences" (sanity/variants/live-campaigns.ts campaignAudiences) and this counts each one's sign-ups.
--
-- Cost: each audience is an index lookup on waitlist_campaign_landing, so the counts grow with the
-- campaigns' own sign-ups, not with the list; only the row of sign-ups no version was shown to
-- counts the whole list once (as the console's figures do).

-- Untagged sign-ups (most of the list) are left out of the index, so it costs them nothing.
create index waitlist_campaign_landing on public.waitlist (utm_campaign, landing_path, utm_source) where utm_campaign is not null;

-- audiences = [{"campaign": "pm-linkedin-hero", "utmCampaign": "pm-linkedin", "utmSource": null,
-- "path": "/", "otherSources": ["newsletter"]}, ...]: one per campaign version and page it is
-- shown on. A version that names no source is shown to that campaign's visitors from any source
-- but the otherSources, whose own versions replace the same section (sanity/variants/campaign-rules.ts
-- matchCampaign). Answers a row per campaign named, then one with campaign null: the sign-ups no
-- version was shown to. A sign-up shown two versions (two sections of one page) counts for both.
create function public.waitlist_campaign_results(audiences jsonb)
returns table (campaign text, signups integer, confirmations integer)
language plpgsql
stable
security definer
set search_path = ''
set jit = off
as $$
begin
  if audiences is null or pg_catalog.jsonb_typeof(audiences) <> 'array' or pg_catalog.jsonb_array_length(audiences) > 1000 then
    raise exception 'audiences must be an array of at most 1000' using errcode = '22023';
  end if;
  if exists (
    select 1
      from pg_catalog.jsonb_array_elements(audiences) x
     where pg_catalog.jsonb_typeof(x) <> 'object'
        or pg_catalog.jsonb_typeof(x -> 'campaign') is distinct from 'string'
        or (x ->> 'campaign') !~ '^[a-z][a-z0-9-]{1,39}$'
        or pg_catalog.jsonb_typeof(x -> 'utmCampaign') is distinct from 'string'
        or pg_catalog.jsonb_typeof(x -> 'path') is distinct from 'string'
        or coalesce(pg_catalog.jsonb_typeof(x -> 'utmSource'), 'null') not in ('string', 'null')
        or pg_catalog.jsonb_typeof(coalesce(x -> 'otherSources', '[]'::jsonb)) <> 'array'
        or pg_catalog.jsonb_array_length(coalesce(x -> 'otherSources', '[]'::jsonb)) > 100
        or exists (
          select 1
            from pg_catalog.jsonb_array_elements(coalesce(x -> 'otherSources', '[]'::jsonb)) s
           where pg_catalog.jsonb_typeof(s) <> 'string'
        )
  ) then
    raise exception 'each audience needs a campaign key, its utm_campaign, a path, and optionally its utm_source and the sources other versions take' using errcode = '22023';
  end if;
  return query
    with audience as (
      select x ->> 'campaign' as campaign,
             x ->> 'utmCampaign' as utm_campaign,
             x ->> 'utmSource' as utm_source,
             x ->> 'path' as landing_path,
             array(select pg_catalog.jsonb_array_elements_text(coalesce(x -> 'otherSources', '[]'::jsonb))) as other_sources
        from pg_catalog.jsonb_array_elements(audiences) x
    ),
    shown as (
      select distinct a.campaign, w.id, w.status
        from audience a
        join public.waitlist w
          on w.utm_campaign = a.utm_campaign
         and w.landing_path = a.landing_path
         and (a.utm_source is null or w.utm_source = a.utm_source)
         and (a.utm_source is not null or w.utm_source is null or w.utm_source <> all (a.other_sources))
    ),
    anyone_shown as (
      select distinct s.id, s.status from shown s
    ),
    everyone as (
      select count(*) as signups, count(*) filter (where w.status <> 'pending') as confirmations from public.waitlist w
    )
    select c.campaign, count(s.id)::integer, (count(s.id) filter (where s.status <> 'pending'))::integer
      from (select distinct a.campaign from audience a) c
      left join shown s on s.campaign = c.campaign
     group by c.campaign
    union all
    select null,
           (e.signups - (select count(*) from anyone_shown))::integer,
           (e.confirmations - (select count(*) from anyone_shown o where o.status <> 'pending'))::integer
      from everyone e
    order by 1 nulls last;
end
$$;

comment on function public.waitlist_campaign_results(jsonb) is
  'Sign-ups and confirmations (confirmed, invited or joined) per campaign version, from the tags and first page each sign-up recorded; the row with campaign null counts the sign-ups no version was shown to. service_role only: the founders'' console calls it with the published versions.';

revoke all on function public.waitlist_campaign_results(jsonb) from public, anon, authenticated, service_role;
grant execute on function public.waitlist_campaign_results(jsonb) to service_role;
