-- The settings rows: the numbers every other file reads, one row per settings table, and the
-- free-mail domains exempt from the domain burst. Change one with an update in a new migration and
-- here (docs/waitlist.md, "Changing the database").
--
-- TypeScript twin: none; docs/waitlist.md explains the numbers.

insert into private.waitlist_limits (singleton, window_seconds, per_client, domain_burst, v6_48_factor, v6_32_factor) values
  ('true', '3600', '50', '20', '4', '16');

insert into private.waitlist_free_mail_domains (domain) values
  ('126.com'),
  ('163.com'),
  ('aol.com'),
  ('fastmail.com'),
  ('gmail.com'),
  ('gmx.com'),
  ('gmx.de'),
  ('gmx.net'),
  ('googlemail.com'),
  ('hey.com'),
  ('hotmail.co.uk'),
  ('hotmail.com'),
  ('hotmail.fr'),
  ('icloud.com'),
  ('live.com'),
  ('mac.com'),
  ('mail.com'),
  ('mail.ru'),
  ('me.com'),
  ('msn.com'),
  ('naver.com'),
  ('outlook.com'),
  ('pm.me'),
  ('proton.me'),
  ('protonmail.com'),
  ('qq.com'),
  ('t-online.de'),
  ('tuta.io'),
  ('tutanota.com'),
  ('web.de'),
  ('yahoo.co.uk'),
  ('yahoo.com'),
  ('yahoo.fr'),
  ('yandex.com'),
  ('yandex.ru'),
  ('ymail.com'),
  ('zoho.com');

insert into private.waitlist_salt (singleton, salt) values
  ('true', 'd804a958-4165-4bf0-9acf-0a95e0e3c0a5');

insert into private.waitlist_confirmation_settings (singleton, token_ttl, purge_pending_after, window_seconds, confirm_per_client, link_requests_per_client, link_request_interval_seconds, lease, max_attempts, retry_base_seconds, retry_max_seconds, erasure_email_lifetime, access_ttl) values
  ('true', '7 days', '00:00:00', '3600', '30', '10', '60', '00:02:00', '12', '30', '21600', '7 days', '30 days');

insert into private.waitlist_referral_settings (only_row, own_data_per_client, places_per_referral, hold_disposable, blocked_domains, hold_same_network, same_network_seconds, hold_velocity, velocity_max, velocity_seconds) values
  ('true', '60', '5', 'true', '{}', 'true', '3600', 'true', '5', '3600');

insert into private.waitlist_mail_caps (singleton, unproven_per_recipient, recipient_window, emails_per_hour) values
  ('true', '3', '1 day', '500');

insert into private.waitlist_invitation_settings (singleton, invitation_ttl, reminder_after) values
  ('true', '14 days', '5 days');

insert into private.waitlist_webhook_settings (singleton, enabled, give_up_after, retry_base_seconds, retry_max_seconds, keep_finished) values
  ('true', 'true', '1 day', '10', '3600', '30 days');
