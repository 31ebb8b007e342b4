-- Own data: what the holder of an e-mailed link can see and do, through the public key.
--
-- Guarantees: waitlist_me(token) answers the holder's place, credits, code, invitation, the
-- rewards they were granted or wait for (18_rewards.sql), the research tasks they answered
-- (19_tasks.sql) and their leaderboard choice and rank (20_leaderboard.sql);
-- waitlist_export_me(token) everything stored about them (their entry with its leaderboard name,
-- its messages, their invitations' times, every reward they earned, every task's answers, never a
-- token); waitlist_delete_me(token) erases the entry now and, in the
-- same transaction, queues the e-mail confirming it. The token is the e-mailed link's (only its
-- hash is stored): whoever can open that e-mail is the person. Each answers null / false alike for
-- an unknown, malformed or expired token, and each is rate limited per network
-- (private.waitlist_entry_for_token, 04_tokens.sql). anon still has no SELECT, UPDATE or DELETE
-- on any table.
--
-- TypeScript twin: components/waitlist/link.ts.

-- The holder's own page: place, credits, referral code, and for an invited or joined person their
-- invitation, or that they joined; for each of them the rewards granted or held (a refused one is
-- the founders' business, not a promise the page keeps showing).
create function public.waitlist_me(token text)
returns jsonb
language plpgsql
volatile
security definer
set search_path = ''
as $$
declare
  held record;
  invitation private.waitlist_invitations;
begin
  perform private.waitlist_limit_network(
    'own_data', (select s.own_data_per_client from private.waitlist_referral_settings s), (select s.window_seconds from private.waitlist_confirmation_settings s),
    'Too many attempts from this network. Please wait a few minutes and try again.', 'calls'
  );
  select * into held from private.waitlist_token_entry(token, false);
  if (held.entry).id is null then
    return null;
  end if;
  if held.expired then
    return pg_catalog.jsonb_build_object('status', 'expired');
  end if;
  if (held.entry).status = 'pending' then
    return pg_catalog.jsonb_build_object('status', 'pending', 'confirm_by', (held.entry).confirm_by);
  end if;
  if (held.entry).status = 'invited' then
    select * into invitation from private.waitlist_invitations i where i.entry_id = (held.entry).id and i.redeemed_at is null and i.expired_at is null;
    return pg_catalog.jsonb_build_object('status', 'invited', 'invited_at', (held.entry).invited_at, 'invitation_expires_at', invitation.expires_at,
                                         'rewards', private.waitlist_own_rewards((held.entry).id));
  end if;
  if (held.entry).status = 'joined' then
    return pg_catalog.jsonb_build_object('status', 'joined', 'joined_at', (held.entry).joined_at, 'rewards', private.waitlist_own_rewards((held.entry).id));
  end if;
  return pg_catalog.jsonb_build_object(
    'status', (held.entry).status,
    'place', private.waitlist_place((held.entry).id),
    'confirmed_total', private.waitlist_line_total('line'),
    'referrals', (held.entry).referral_credits,
    'referral_code', (held.entry).referral_code,
    'places_per_referral', (select s.places_per_referral from private.waitlist_referral_settings s),
    'rewards', private.waitlist_own_rewards((held.entry).id),
    'tasks', private.waitlist_own_tasks((held.entry).id),
    'board', private.waitlist_board_state(held.entry)
  );
end
$$;

comment on function public.waitlist_me(text) is
  'What the link''s page shows its holder: ''pending'' (press to confirm), ''expired'', or their place, credits, referral code, rewards ([{rung, status}], granted or held), research tasks ({done, places, cap}) and leaderboard choice ({on_board, name, initials, hidden, rank}); null for any other token. Rate limited per network.';

revoke all on function public.waitlist_me(text) from public, anon, authenticated, service_role;
grant execute on function public.waitlist_me(text) to anon, service_role;

-- Everything stored about the holder: their entry, its messages, their invitations (times only:
-- their tokens are secrets) and every reward they earned, refused ones too.
create function public.waitlist_export_me(token text)
returns jsonb
language plpgsql
volatile
security definer
set search_path = ''
as $$
declare
  entry public.waitlist := private.waitlist_entry_for_token(token);
begin
  if entry.id is null then
    return null;
  end if;
  return pg_catalog.jsonb_build_object(
    'entry', (pg_catalog.to_jsonb(entry) - array['email_key', 'ref', 'referred_by'])
             || pg_catalog.jsonb_build_object('came_through_a_referral_link', entry.referred_by is not null),
    'invitations', (
      select coalesce(pg_catalog.jsonb_agg(pg_catalog.jsonb_build_object(
               'invited_at', i.invited_at, 'expires_at', i.expires_at, 'out_of_order', i.out_of_order,
               'reminded_at', i.reminded_at, 'redeemed_at', i.redeemed_at, 'expired_at', i.expired_at
             ) order by i.invited_at), '[]'::jsonb)
        from private.waitlist_invitations i
       where i.entry_id = entry.id
    ),
    -- Brought from another tool (16_imports.sql): when, and the consent the founders recorded.
    'imported', (
      select pg_catalog.jsonb_build_object('imported_at', i.started_at, 'line', e.line, 'consent', i.consent)
        from private.waitlist_imported e join private.waitlist_imports i on i.id = e.import_id
       where e.entry_id = entry.id
    ),
    'rewards', (
      select coalesce(pg_catalog.jsonb_agg(pg_catalog.jsonb_build_object(
               'rung', r.rung, 'kind', r.kind, 'places', r.places, 'status', r.status, 'earned_at', r.earned_at, 'decided_at', r.decided_at
             ) order by r.earned_at, r.rung), '[]'::jsonb)
        from private.waitlist_rewards_earned r
       where r.entry_id = entry.id
    ),
    -- The research tasks they answered, with the answers as they gave them (19_tasks.sql).
    'tasks', private.waitlist_own_task_answers(entry.id),
    'messages', (
      select coalesce(pg_catalog.jsonb_agg(pg_catalog.jsonb_build_object(
               'kind', o.kind, 'status', o.status, 'attempts', o.attempts, 'created_at', o.created_at, 'sent_at', o.sent_at
             ) order by o.created_at), '[]'::jsonb)
        from public.waitlist_outbox o
       where o.entry_id = entry.id
    ),
    -- Whether their address gets no more e-mail, why and since when (21_deliverability.sql).
    'suppressed', (
      select pg_catalog.jsonb_build_object('reason', s.reason, 'provider', s.provider, 'suppressed_at', s.suppressed_at)
        from private.waitlist_suppression(entry.email) s
       where s.mailbox_hash is not null
    ),
    'exported_at', pg_catalog.now()
  );
end
$$;

comment on function public.waitlist_export_me(text) is
  'Everything stored about the token holder (their entry, its messages, invitations, rewards earned, research tasks answered, and when and why their address was suppressed), as JSON; null for any other token. Rate limited per network.';

revoke all on function public.waitlist_export_me(text) from public, anon, authenticated, service_role;
grant execute on function public.waitlist_export_me(text) to anon, service_role;

create function public.waitlist_delete_me(token text)
returns boolean
language plpgsql
volatile
security definer
set search_path = ''
as $$
declare
  entry public.waitlist := private.waitlist_entry_for_token(token, true);
begin
  if entry.id is null then
    return false;
  end if;
  insert into public.waitlist_outbox (kind, payload)
  values ('erasure_email', pg_catalog.jsonb_build_object('email', entry.email, 'name', entry.name));
  delete from public.waitlist w where w.id = entry.id;
  return true;
end
$$;

comment on function public.waitlist_delete_me(text) is
  'Erases the token holder''s entry and its messages now and queues the e-mail confirming it (the address is kept only until that is sent); their referrer keeps the credit. False for any other token. Rate limited per network.';

revoke all on function public.waitlist_delete_me(text) from public, anon, authenticated, service_role;
grant execute on function public.waitlist_delete_me(text) to anon, service_role;
