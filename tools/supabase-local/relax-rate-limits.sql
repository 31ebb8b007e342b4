-- For the local double only (`tsx tools/supabase-local/main.ts --seed-sql tools/supabase-local/relax-rate-limits.sql`):
-- lifts the waitlist's sign-up limits for automated browser tests and benchmarks, which sign up
-- many times within minutes from one address (127.0.0.1, the peer every local request has).
-- Never apply this to a real project; the production limits live in
-- supabase/schemas/10_settings.sql (the rows) and 03_limits.sql (how they apply).
update private.waitlist_limits set per_client = 1000000, domain_burst = 1000000;
-- And the e-mail caps (private.waitlist_mail_caps, supabase/schemas/03_limits.sql): a benchmark sends
-- more than the production hour allows.
update private.waitlist_mail_caps set emails_per_hour = 1000000;
