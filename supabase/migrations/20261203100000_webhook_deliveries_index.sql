-- The founders' console lists webhook deliveries (public.waitlist_webhook_deliveries) from an index
-- in their order instead of sorting every webhook message kept.

-- The console's deliveries in their order, read from the index's start: without it the console
-- sorted every webhook message kept (30 days of events, a few per entry: millions at a million
-- entries) for the 50 it shows.
create index waitlist_outbox_webhook_deliveries on public.waitlist_outbox ((status = 'failed') desc, greatest(created_at, available_at, sent_at) desc, id)
  where kind = 'webhook';
