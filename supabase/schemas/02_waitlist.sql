-- public.waitlist: one row per person on the list, written through the public (anon) key.
--
-- Who may do what:
--   anon (the public key shipped to every browser): INSERT of the form's columns (name, email,
--        project, the visit's source, the referral code it came through, updates, language, the
--        experiment variants the visitor was assigned, the answers to the page's questions) and
--        nothing else: it cannot read, change or delete a single row, so the public key cannot
--        leak the list. Everything else a visitor does goes through security definer functions
--        that answer only the holder of an e-mailed token (08_own_data.sql).
--   authenticated: nothing (the marketing site has no sign-in).
--   service_role (server-side only, bypasses RLS): SELECT for the owner's list/export commands,
--        DELETE for erasure requests.
--
-- Why the site inserts WITHOUT reading the row back: through PostgREST that is INSERT ...
-- RETURNING, which needs a SELECT grant and a SELECT policy for anon, and any such policy lets
-- anyone holding the public key read every e-mail. A 201 with an empty body proves the row is
-- stored.
--
-- Field rules (01_rules.sql, shared with the form): values are trimmed and the e-mail normalised
-- by the waitlist_clean trigger, for every writer, a name or project of whitespace and invisible
-- characters alone stored as '' (waitlist_rules.clean_text); name and e-mail required and not blank; at
-- most 100 / 254 / 200 characters for name / e-mail / project; one entry per address (the
-- deferrable unique email_key, lower(email) of the normalised value, checked at the end of the
-- statement, after the one-row guard of 03_limits.sql). The format and plain-text rules are NOT
-- VALID: rows stored under older, looser rules stay (list them with
-- `select * from public.waitlist where not waitlist_rules.email_plausible(email)`); every new or
-- changed row must pass.
--
-- Statuses: pending -> confirmed -> invited -> joined, each step with its time (06_invitations.sql
-- refuses any other change). Entries stored before double opt-in are 'confirmed' with no
-- confirmed_at.
--
-- Triggers on this table fire in name order; each is declared beside its function:
--   waitlist_answers (15_questions.sql), waitlist_clean (here), waitlist_enqueue_messages (07_outbox.sql), waitlist_experiments
--   (12_experiments.sql), waitlist_language_published (17_languages.sql), waitlist_pending_defaults
--   and waitlist_replace_expired (04_tokens.sql), waitlist_rate_limit and waitlist_statement_start
--   (03_limits.sql), waitlist_referral and waitlist_referral_credit (05_line.sql), waitlist_rewards
--   (18_rewards.sql),
--   waitlist_status_transition (06_invitations.sql), waitlist_updates_stopped and
--   waitlist_updates_times (09_updates.sql).
--
-- Imports from another tool (16_imports.sql) write through the same triggers, as the service role.
--
-- TypeScript twins: components/waitlist/join.ts (the insert and what each answer means) and
-- components/waitlist/source.ts (the source columns).

create table public.waitlist (
  id uuid primary key default gen_random_uuid(),
  name text not null,
  email text not null,
  project text not null default '',
  created_at timestamptz not null default now(),
  flag text,
  email_key text generated always as (lower(email)) stored,
  status text not null default 'pending',
  confirmed_at timestamptz,
  confirm_by timestamptz default (now() + '7 days'::interval),
  utm_source text,
  utm_medium text,
  utm_campaign text,
  referrer_host text,
  landing_path text,
  referral_code text not null,
  referred_by uuid references public.waitlist (id) on delete set null,
  referral_credits integer not null default 0,
  ref text,
  invited_at timestamptz,
  joined_at timestamptz,
  founding_member boolean not null default true,
  updates boolean not null default false,
  updates_opted_in_at timestamptz,
  updates_stopped_at timestamptz,
  language text not null default 'en',
  experiments jsonb not null default '{}'::jsonb,
  answers jsonb not null default '{}'::jsonb,
  reward_places integer not null default 0,
  board_name text,
  board_at timestamptz,
  board_hidden boolean not null default false,

  constraint waitlist_name_not_blank check (public.waitlist_trim(name) <> ''),
  constraint waitlist_name_length check (char_length(name) <= 100),
  constraint waitlist_email_not_blank check (public.waitlist_trim(email) <> ''),
  constraint waitlist_email_length check (char_length(email) <= 254),
  constraint waitlist_project_length check (char_length(project) <= 200),
  constraint waitlist_flag_known check (flag in ('domain_burst', 'disposable')),
  constraint waitlist_email_unique unique (email_key) deferrable initially immediate,
  constraint waitlist_utm_source_format check (utm_source ~ '^[^\u0000-\u001F\u007F-\u009F\u061C\u200B-\u200F\u2028-\u202E\u2060-\u2069\uFEFF]{1,100}$'),
  constraint waitlist_utm_medium_format check (utm_medium ~ '^[^\u0000-\u001F\u007F-\u009F\u061C\u200B-\u200F\u2028-\u202E\u2060-\u2069\uFEFF]{1,100}$'),
  constraint waitlist_utm_campaign_format check (utm_campaign ~ '^[^\u0000-\u001F\u007F-\u009F\u061C\u200B-\u200F\u2028-\u202E\u2060-\u2069\uFEFF]{1,100}$'),
  constraint waitlist_referrer_host_format check (
    char_length(referrer_host) <= 253
    and (referrer_host ~ '^[a-z0-9_-]+(\.[a-z0-9_-]+)*$' or referrer_host ~ '^\[[0-9a-f:.]+\]$')
  ),
  constraint waitlist_landing_path_format check (landing_path ~ '^/[^?#\u0000-\u0020\u007F-\u009F]{0,199}$'),
  constraint waitlist_referral_code_format check (referral_code ~ '^[A-Za-z0-9_-]{22}$'),
  constraint waitlist_referral_credits_count check (referral_credits >= 0),
  constraint waitlist_ref_consumed check (ref is null),
  constraint waitlist_status_known check (status in ('pending', 'confirmed', 'invited', 'joined')),
  constraint waitlist_confirmed_time check (status <> 'pending' or confirmed_at is null),
  constraint waitlist_step_times check (
    (status in ('pending', 'confirmed') and invited_at is null and joined_at is null)
    or (status = 'invited' and invited_at is not null and joined_at is null)
    or (status = 'joined' and invited_at is not null and joined_at is not null)
  ),
  constraint waitlist_updates_time check (not updates or updates_opted_in_at is not null),
  constraint waitlist_language_check check (language ~ '^[a-z]{2}(-[a-z]{2})?$'),
  constraint waitlist_experiments_object check (jsonb_typeof(experiments) = 'object'),
  constraint waitlist_answers_object check (jsonb_typeof(answers) = 'object'),
  constraint waitlist_reward_places_count check (reward_places >= 0),
  constraint waitlist_board_opted_in check ((board_name is null) = (board_at is null))
);

alter table public.waitlist
  add constraint waitlist_email_format check (waitlist_rules.email_plausible(email)) not valid;

alter table public.waitlist
  add constraint waitlist_name_plain check (waitlist_rules.plain_text(name)) not valid;

alter table public.waitlist
  add constraint waitlist_project_plain check (waitlist_rules.plain_text(project)) not valid;

comment on table public.waitlist is
  'Marketing-site waitlist. anon may only insert (name, email, project, and the sign-up''s source, referral, updates, language, experiment variants and answers); see supabase/schemas/02_waitlist.sql.';

comment on column public.waitlist.project is
  'The form''s "Project or Company" value, '''' when left empty.';

comment on column public.waitlist.flag is
  '''domain_burst'' when the row arrived during an unusual burst of sign-ups with its e-mail domain; ''disposable'' for an imported address at a disposable-mail domain (16_imports.sql); null otherwise.';

comment on column public.waitlist.email_key is
  'lower(email): "already on the waitlist" is this column''s unique constraint.';

comment on column public.waitlist.status is
  '''pending'' until the address is confirmed through the e-mailed link; ''confirmed'' after.';

comment on column public.waitlist.confirm_by is
  'A pending entry still unconfirmed after this time no longer blocks its address and is purged.';

comment on column public.waitlist.landing_path is
  'The first page of the visit on this site (path only).';

comment on column public.waitlist.referral_code is
  'Public code of this entry''s referral link (/waitlist?ref=…); random, names nobody.';

comment on column public.waitlist.referred_by is
  'The entry whose referral link this sign-up came through (null when none, unknown or self).';

comment on column public.waitlist.referral_credits is
  'How many people who came through this entry''s link have confirmed (kept when they erase themselves), less the credits held for the founders (private.waitlist_referral_holds) and not granted.';

comment on column public.waitlist.reward_places is
  'Places the rewards ladder''s ''places'' rungs (18_rewards.sql) and the research tasks (19_tasks.sql) earned, moving the entry up the line on top of its referral credits.';

comment on column public.waitlist.board_name is
  'The name the person chose to appear under on the leaderboard (their initials, or a nickname: 20_leaderboard.sql); null unless they opted in.';

comment on column public.waitlist.board_hidden is
  'A founder hid the entry from the leaderboard (the console); it stays opted in and off the board.';

comment on column public.waitlist.invited_at is
  'When the open invitation was made (null unless invited or joined).';

comment on column public.waitlist.joined_at is
  'When the person redeemed their invitation in the product''s app.';

comment on column public.waitlist.founding_member is
  'Founding-member pricing is theirs (everyone invited from the waitlist, unless the owner says otherwise).';

comment on column public.waitlist.updates is
  'The person asked for product updates and new posts by e-mail (the form''s box, or their own page), and has not stopped them.';

comment on column public.waitlist.updates_opted_in_at is
  'When updates were last turned on (the database''s clock).';

comment on column public.waitlist.updates_stopped_at is
  'When updates were last turned off after being on (their page, or one click in an update e-mail).';

comment on column public.waitlist.language is
  'The language of the page the person signed up on (''en'', ''de'', …): every e-mail to them is written in it.';

comment on column public.waitlist.answers is
  'The answers to the waitlist page''s questions, each with the question and option labels as the person saw them (15_questions.sql).';

comment on column public.waitlist.experiments is
  'The experiment variants the person was assigned when signing up ({"experiment key": "variant key"}), only of experiments then running (12_experiments.sql).';

create unique index waitlist_referral_code_unique on public.waitlist (referral_code);

create index waitlist_referred_by on public.waitlist (referred_by) where referred_by is not null;

create index waitlist_pending_confirm_by on public.waitlist (confirm_by) where status = 'pending';

create index waitlist_status on public.waitlist (status);

revoke all on table public.waitlist from public, anon, authenticated, service_role;
grant select, delete on table public.waitlist to service_role;
grant insert (name, email, project, utm_source, utm_medium, utm_campaign, referrer_host, landing_path, ref, updates, language, experiments, answers) on table public.waitlist to anon;

alter table public.waitlist enable row level security;

-- The only policy: anon may insert. Its check deliberately does NOT repeat the field rules:
-- Postgres evaluates RLS WITH CHECK before CHECK constraints, so a failing rule here would turn
-- every precise 23514 "violates check constraint waitlist_name_length" (HTTP 400) into an opaque
-- 42501 "violates row-level security policy" (HTTP 401). Instead it pins what the column grants
-- already imply, so widening the grants by mistake cannot let anon backdate entries.
create policy waitlist_anon_insert
  on public.waitlist
  for insert
  to anon
  with check (created_at >= now() - interval '1 minute' and created_at <= now() + interval '1 minute');

-- The trim trigger now normalises the e-mail too (still for every writer, on insert and on an update
-- that writes these columns: a change of status or credits, thousands at once when inviting, leaves
-- them as they were cleaned).
create function public.waitlist_clean()
returns trigger
language plpgsql
set search_path = ''
as $$
begin
  new.name := waitlist_rules.clean_text(new.name);
  new.email := waitlist_rules.normalize_email(new.email);
  new.project := waitlist_rules.clean_text(new.project);
  return new;
end
$$;

revoke all on function public.waitlist_clean() from public, anon, authenticated, service_role;

create trigger waitlist_clean
  before insert or update of name, email, project on public.waitlist
  for each row execute function public.waitlist_clean();
