/**
 * The line's definition, plainly (docs/waitlist.md, "The line"): the confirmed entries ranked by
 * arrival - credits * places_per_referral - the places rungs rewarded (18_rewards.sql), ties to the
 * earlier arrival (the arrival is the number each entry drew at its first confirmation). Rows (id, place). The property test
 * (tests/integration/waitlist-line.test.ts) and the scale bench's check after a bulk build
 * (./bulk.ts) both hold supabase/schemas/05_line.sql's answers to it.
 */
export const LINE_DEFINITION = `
  select w.id, row_number() over (order by l.arrival - w.referral_credits::bigint * s.places_per_referral - w.reward_places, l.arrival)::int as place
    from public.waitlist w
    join private.waitlist_line l on l.entry_id = w.id
   cross join private.waitlist_referral_settings s
   where w.status = 'confirmed'`
