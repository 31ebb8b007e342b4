-- Inviting 10,000 at once (issue #51, item 3): the entry.invited webhook computes its expires_at
-- from the invitation settings instead of looking the invitation up, a lookup the planner read as a
-- scan of every open invitation while the table had no statistics (a fresh project's first big
-- run): one run of 10,000 read each open invitation once per person. See supabase/schemas/07_outbox.sql.
--
-- Never edit this file once applied; change it with a later migration.

-- The events of an entry's life: confirmed the first time (not when an expired invitation puts
-- someone back in line), invited, joined, and a referral credit that counts (an unheld one, or a
-- held one when a founder grants it: both add to referral_credits, a held one does not).
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
    -- The invitation waitlist_enqueue_messages (which fires first, by name) has just written expires
    -- this long after new.invited_at. Computed, not looked up: on a table with no statistics yet the
    -- lookup was planned over every open invitation, so inviting 10,000 at once read 50 million rows.
    perform private.waitlist_enqueue_webhook('entry.invited', new.id, pg_catalog.jsonb_build_object(
      'invited_at', new.invited_at,
      'expires_at', new.invited_at + (select s.invitation_ttl from private.waitlist_invitation_settings s)
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

