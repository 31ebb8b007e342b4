-- The share kit (issue #69): the person a claimed message is about carries their referral code, so
-- the confirmation e-mail can carry the share links. The code is public by design (it is in every
-- shared link).
create or replace function private.waitlist_outbox_entry(w public.waitlist)
returns jsonb
language sql
stable
set search_path = ''
as $$
  select pg_catalog.jsonb_build_object(
    'id', w.id, 'name', w.name, 'email', w.email, 'project', w.project,
    'utm_source', w.utm_source, 'utm_medium', w.utm_medium, 'utm_campaign', w.utm_campaign,
    'referrer_host', w.referrer_host, 'landing_path', w.landing_path, 'answers', w.answers,
    'referral_code', w.referral_code
  )
$$;

revoke all on function private.waitlist_outbox_entry(public.waitlist) from public, anon, authenticated, service_role;
