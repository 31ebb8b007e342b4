-- The visitor's language on the waitlist (issue #30): a sign-up records the language of the page
-- it came from, and every e-mail to that person is written in it. tests/integration/
-- waitlist-language.test.ts runs it on PGlite and on a real PostgreSQL server.
--
-- 1. THE SIGN-UP'S LANGUAGE. public.waitlist.language: 'en' unless the sign-up says otherwise (the
--    anon key may insert it), always a code of the shape the site's addresses use ('de', 'pt-br':
--    lib/i18n/languages.ts). Which languages exist is the site's content, not the database's: a
--    code the site no longer speaks is written in English by the dispatcher.
-- 2. EVERY MESSAGE KNOWS ITS LANGUAGE. A trigger writes the person's language into each outbox
--    message's payload when it is queued (confirmation, new link, invitation and its reminder,
--    update, erasure, Slack), so the dispatcher needs no further read, and an erasure e-mail, whose
--    entry is gone by the time it is sent, still goes out in the person's language.
-- 3. A POST TO ITS LANGUAGE'S READERS. waitlist_broadcast_post queues a post for the people who
--    asked for updates; the same trigger keeps the messages of those whose language is the post's
--    (its path's prefix: /de/blog/…), so a translation, a post of its own with its own _id, goes
--    once to its own readers, and the English post to the English ones.
-- 4. THE APP KNOWS IT TOO. waitlist_redeem_invitation answers the person's language beside who they
--    are, so the product's app can greet them in it.
--
-- Never edit this file once applied; change it with a later migration.

-- ---------------------------------------------------------------------------
-- 1. The sign-up's language

alter table public.waitlist
  add column language text not null default 'en',
  add constraint waitlist_language_check check (language ~ '^[a-z]{2}(-[a-z]{2})?$');
comment on column public.waitlist.language is
  'The language of the page the person signed up on (''en'', ''de'', …): every e-mail to them is written in it.';

grant insert (language) on table public.waitlist to anon;

-- ---------------------------------------------------------------------------
-- 2-3. Every message knows its language; a post goes to its language's readers

create function private.waitlist_outbox_language()
returns trigger
language plpgsql
security definer
set search_path = ''
as $$
declare
  person_language text := coalesce(
    (select w.language from public.waitlist w where w.id = new.entry_id),
    -- An erasure message has no entry (it is deleted right after, in the same transaction): its
    -- payload names the address the person had.
    (select w.language from public.waitlist w where new.entry_id is null and w.email = new.payload ->> 'email'),
    'en'
  );
begin
  -- A post's path names its language (/de/blog/…; English's has no prefix, lib/content/paths.ts):
  -- waitlist_broadcast_post queues it for everyone who wants updates, and only its language's
  -- readers keep their message. Its count of recipients counts only those.
  if new.kind = 'update_email'
     and person_language <> coalesce(pg_catalog.substring(new.payload ->> 'path', '^/([a-z]{2}(?:-[a-z]{2})?)/'), 'en') then
    return null;
  end if;
  new.payload := coalesce(new.payload, '{}'::jsonb) || pg_catalog.jsonb_build_object('language', person_language);
  return new;
end
$$;

create trigger waitlist_outbox_language
  before insert on public.waitlist_outbox
  for each row execute function private.waitlist_outbox_language();

-- An erasure message's payload may carry the language beside the address and the name (one queued
-- before this migration has none, and is written in English); once done it is still emptied.
alter table public.waitlist_outbox drop constraint waitlist_outbox_erasure_payload;
alter table public.waitlist_outbox
  add constraint waitlist_outbox_erasure_payload check (
    kind <> 'erasure_email'
    -- coalesce: a missing key makes jsonb_typeof null, and a check passes on null.
    or coalesce(case
         when status in ('pending', 'sending') then
           jsonb_typeof(payload -> 'email') = 'string' and jsonb_typeof(payload -> 'name') = 'string'
           and coalesce(jsonb_typeof(payload -> 'language'), 'string') = 'string'
           and (payload - 'email' - 'name' - 'language') = '{}'::jsonb
         else payload = '{}'::jsonb
       end, false)
  );

revoke all on function private.waitlist_outbox_language() from public, anon, authenticated, service_role;

-- 4. The app greets the person in their language: redeeming answers it beside who they are (the
--    invitations migration's function, with one more key; its grants stay as they were).
create or replace function public.waitlist_redeem_invitation(token text)
returns jsonb
language plpgsql
volatile
security definer
set search_path = ''
as $$
declare
  invitation private.waitlist_invitations;
  entry public.waitlist;
begin
  if token is null or token !~ '^[A-Za-z0-9_-]{43}$' then
    return pg_catalog.jsonb_build_object('error', 'unknown');
  end if;
  select i.* into invitation
    from private.waitlist_invitation_tokens k
    join private.waitlist_invitations i on i.id = k.invitation_id
   where k.token_hash = pg_catalog.encode(pg_catalog.sha256(pg_catalog.convert_to(token, 'UTF8')), 'hex')
   for update of i;
  if not found then
    return pg_catalog.jsonb_build_object('error', 'unknown');
  end if;
  if invitation.redeemed_at is not null then
    return pg_catalog.jsonb_build_object('error', 'used');
  end if;
  if invitation.expired_at is not null or invitation.expires_at <= pg_catalog.now() then
    return pg_catalog.jsonb_build_object('error', 'expired');
  end if;
  update private.waitlist_invitations set redeemed_at = pg_catalog.now() where id = invitation.id;
  update public.waitlist set status = 'joined' where id = invitation.entry_id returning * into entry;
  return pg_catalog.jsonb_build_object(
    'name', entry.name, 'email', entry.email, 'company', entry.project,
    'founding_member', entry.founding_member, 'invited_at', invitation.invited_at, 'joined_at', entry.joined_at,
    'language', entry.language
  );
end
$$;
comment on function public.waitlist_redeem_invitation(text) is
  'For the product''s app (service role, through POST /api/invitations/redeem): redeems an invitation once and says whose it is, with their language; {"error": "unknown" | "used" | "expired"} otherwise.';
