-- For the local double only (`tsx tools/supabase-local/main.ts --seed-sql tools/supabase-local/relax-rate-limits.sql`):
-- lifts the waitlist's sign-up limits for automated browser tests and benchmarks, which sign up
-- many times within minutes from one address (127.0.0.1, the peer every local request has).
-- Never apply this to a real project; the production limits live in
-- supabase/migrations/20261122140000_waitlist_rate_limit.sql and
-- 20261123120000_waitlist_trust.sql.
update private.waitlist_limits set per_client = 1000000, domain_burst = 1000000;
-- And the e-mail caps (supabase/migrations/20261124100000_waitlist_abuse.sql): a benchmark sends
-- more than the production hour allows.
update private.waitlist_mail_caps set emails_per_hour = 1000000;
