-- Comments in the catalog that pointed at files that moved (issue #41). The shared whitespace set
-- lives in components/waitlist/rules.ts since the waitlist code moved out of lib/; the design notes
-- of the table and of the limits now live in supabase/schemas/, current, instead of the headers of
-- applied migrations, which cannot be kept up to date.
--
-- Never edit this file once applied; the current state of everything is in supabase/schemas/.

comment on function public.waitlist_trim(text) is
  'Trims the whitespace set shared with components/waitlist/rules.ts (WAITLIST_WHITESPACE).';
comment on table public.waitlist is
  'Marketing-site waitlist. anon may only insert (name, email, project, and the sign-up''s source, referral, updates and language); see supabase/schemas/02_waitlist.sql.';
comment on table private.waitlist_limits is
  'Waitlist sign-up limits, read by private.waitlist_rate_limit(); see supabase/schemas/03_limits.sql.';
