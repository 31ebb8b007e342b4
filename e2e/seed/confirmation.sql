-- For e2e/waitlist-confirm.spec.ts, run by the local double at start (--seed-sql). Plaintext tokens
-- are in the specs; only their hashes are stored, as the dispatcher stores them.
-- A confirmed person whose link to their page expired yesterday (sent 31 days ago).
insert into public.waitlist (name, email, project, status, confirmed_at)
values ('Expired Link', 'expired.link@example.com', '', 'confirmed', now() - interval '31 days');
insert into private.waitlist_tokens (token_hash, entry_id, created_at, expires_at)
select encode(sha256(convert_to('expired-link-token-for-the-e2e-test-0000000', 'UTF8')), 'hex'), id, now() - interval '31 days', now() - interval '1 day'
  from public.waitlist where email = 'expired.link@example.com';

-- A sign-up that was never confirmed: its week ran out yesterday (the purge has not run yet).
insert into public.waitlist (name, email, project) values ('Expired Pending', 'expired.pending@example.com', '');
delete from public.waitlist_outbox o using public.waitlist w where o.entry_id = w.id and w.email = 'expired.pending@example.com';
update public.waitlist set confirm_by = now() - interval '1 day' where email = 'expired.pending@example.com';
insert into private.waitlist_tokens (token_hash, entry_id, created_at, expires_at)
select encode(sha256(convert_to('expired-pending-token-for-the-e2e-test-0000', 'UTF8')), 'hex'), id, now() - interval '8 days', now() + interval '22 days'
  from public.waitlist where email = 'expired.pending@example.com';

-- For e2e/waitlist-referrals.spec.ts: three people who confirmed hours ago, in this order; the
-- third's e-mailed link (plaintext in the spec) opens their place, referral link and own data.
insert into public.waitlist (name, email, project, status, confirmed_at)
values ('First In Line', 'first.in.line@example.com', '', 'confirmed', now() - interval '3 hours'),
       ('Second In Line', 'second.in.line@example.com', '', 'confirmed', now() - interval '2 hours'),
       ('Third In Line', 'third.in.line@example.com', 'Referrals Ltd', 'confirmed', now() - interval '1 hour');
insert into private.waitlist_tokens (token_hash, entry_id, expires_at)
select encode(sha256(convert_to('third-in-line-token-for-the-e2e-test-000000', 'UTF8')), 'hex'), id, now() + interval '30 days'
  from public.waitlist where email = 'third.in.line@example.com';

-- Every page of the suite reaches the double from one address (127.0.0.1), hundreds of times within
-- the hour: the production allowances per network (sign-ups 50, confirm 30, new links 10, own data
-- 60 an hour) would run out partway and turn later specs' forms and confirm pages into "too many".
-- The limits themselves are proven on PGlite and real PostgreSQL (tests/integration/waitlist-*.test.ts);
-- the form's 429 in e2e/bot-filters.spec.ts.
update private.waitlist_limits set per_client = 100000;
update private.waitlist_confirmation_settings set confirm_per_client = 100000, link_requests_per_client = 100000;
update private.waitlist_referral_settings set own_data_per_client = 100000;

-- For e2e/console.admission.spec.ts: a webhook delivery its receiver refused (503) for a day, now
-- failed, for the console's Resend. An entry.left names only an id, which no entry has.
insert into public.waitlist_outbox (kind, payload, status, attempts, last_error, retry_until, created_at)
values ('webhook', jsonb_build_object('type', 'entry.left', 'occurred_at', now() - interval '1 day', 'data', jsonb_build_object('id', '00000000-0000-4000-8000-00000000e2e0')),
        'failed', 12, 'Webhook answered HTTP 503.', now() - interval '1 minute', now() - interval '1 day');

-- For e2e/mail-events.admission.spec.ts: the automatic pause needs 100 e-mails in its 7-day window
-- (21_deliverability.sql), more than a run of that spec alone sends; from the first e-mail here, so the
-- spec's complaints pause sending whether it runs alone or after the whole suite.
update private.waitlist_mail_settings set pause_min_sent = 1;
