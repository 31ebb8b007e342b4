-- For e2e/waitlist-confirm.spec.ts, run by the local double at start (--seed-sql): a pending
-- sign-up whose confirmation link expired a day ago. Its plaintext token is in the spec; only the
-- hash is stored, as the dispatcher would have stored it. Its queued e-mail is removed, so the
-- dispatcher does not replace the expired token before the test opens the link.
insert into public.waitlist (name, email, project) values ('Expired Link', 'expired.link@example.com', '');
delete from public.waitlist_outbox o using public.waitlist w where o.entry_id = w.id and w.email = 'expired.link@example.com';
update public.waitlist
   set token_hash = '01dd67497f67512c3080e9d644ebcefce9ea5bde2b70c7bc3ad324aa02808c43',
       token_expires_at = now() - interval '1 day'
 where email = 'expired.link@example.com';

-- For e2e/waitlist-referrals.spec.ts: three people who confirmed hours ago, in this order; the
-- third's e-mailed link (plaintext in the spec) opens their place, referral link and own data.
insert into public.waitlist (name, email, project, status, confirmed_at)
values ('First In Line', 'first.in.line@example.com', '', 'confirmed', now() - interval '3 hours'),
       ('Second In Line', 'second.in.line@example.com', '', 'confirmed', now() - interval '2 hours'),
       ('Third In Line', 'third.in.line@example.com', 'Referrals Ltd', 'confirmed', now() - interval '1 hour');
update public.waitlist
   set token_hash = encode(sha256(convert_to('third-in-line-token-for-the-e2e-test-000000', 'UTF8')), 'hex'),
       token_expires_at = now() - interval '1 day'
 where email = 'third.in.line@example.com';
