-- Experiments (issue #43): each sign-up records the variants its visitor was assigned, and only
-- variants of experiments that are running now, so junk can never enter the counts.
--
-- Guarantees:
--   public.waitlist.experiments (02_waitlist.sql) is an object of experiment key -> variant key,
--   insertable by anon with the rest of the form. The waitlist_experiments trigger, for every
--   writer, keeps only the pairs found in private.waitlist_experiment_variants and silently drops
--   everything else (unknown or stopped experiment, unknown variant, malformed key, a non-string
--   or nested value, a non-object, null): the sign-up itself is never refused for it.
--   private.waitlist_experiment_variants is the set of running experiments and their variant keys
--   ('control' and each variant), replaced as a whole by public.waitlist_replace_experiments,
--   which only service_role may call (the site's server, after each Sanity publish:
--   components/variants/sync.ts). anon can read neither the set nor any row.
--   public.waitlist_experiment_results (service_role only) counts sign-ups and confirmations per
--   experiment and variant for the founders' console.
--   Erasure: the variants live in the person's own row, so deleting the row (waitlist_delete_me,
--   the purge) deletes them; nothing else names a person.
--
-- Why a column and not a child table: the insert stays the one anon INSERT the site already makes
-- (no second table anon could write to, no second request that could half-fail), erasure needs
-- nothing new, and the set is small (at most 20 pairs, MAX_ASSIGNMENTS in the cookie's format).
--
-- TypeScript twins: sanity/variants/assignments.ts (the key patterns, repeated in the
-- checks below), components/variants/sync.ts, components/variants/results.ts.

create table private.waitlist_experiment_variants (
  experiment text not null check (experiment ~ '^[a-z][a-z0-9-]{1,39}$'),
  variant text not null check (variant ~ '^[a-z][a-z0-9-]{0,19}$'),
  primary key (experiment, variant)
);

comment on table private.waitlist_experiment_variants is
  'The running experiments and their variant keys (control included), as published in Sanity; replaced as a whole by public.waitlist_replace_experiments.';

revoke all on table private.waitlist_experiment_variants from public, anon, authenticated, service_role;

-- Keeps only pairs of running experiments' known variants; never raises, so a stale cookie or an
-- attacker's body costs the sign-up nothing.
create function private.waitlist_experiments()
returns trigger
language plpgsql
security definer
set search_path = ''
as $$
begin
  if new.experiments is null or pg_catalog.jsonb_typeof(new.experiments) <> 'object' then
    new.experiments := '{}'::jsonb;
    return new;
  end if;
  new.experiments := coalesce((
    select pg_catalog.jsonb_object_agg(e.key, e.value)
      from pg_catalog.jsonb_each(new.experiments) e
      join private.waitlist_experiment_variants v
        on v.experiment = e.key and pg_catalog.jsonb_typeof(e.value) = 'string' and v.variant = (e.value #>> '{}')
  ), '{}'::jsonb);
  return new;
end
$$;

revoke all on function private.waitlist_experiments() from public, anon, authenticated, service_role;

create trigger waitlist_experiments
  before insert or update of experiments on public.waitlist
  for each row execute function private.waitlist_experiments();

-- The server's sync: running = [{"key": "hero-words", "variants": ["b", "c"]}, ...], every running
-- experiment (an empty array when none runs). Refuses a malformed set as a whole rather than
-- storing half of it; the caller keeps the last good set when anything fails.
create function public.waitlist_replace_experiments(running jsonb)
returns integer
language plpgsql
volatile
security definer
set search_path = ''
as $$
declare
  stored integer;
begin
  if running is null or pg_catalog.jsonb_typeof(running) <> 'array' or pg_catalog.jsonb_array_length(running) > 100 then
    raise exception 'running experiments must be an array of at most 100' using errcode = '22023';
  end if;
  if exists (
    select 1
      from pg_catalog.jsonb_array_elements(running) x
     where pg_catalog.jsonb_typeof(x) <> 'object'
        or pg_catalog.jsonb_typeof(x -> 'key') is distinct from 'string'
        or (x ->> 'key') !~ '^[a-z][a-z0-9-]{1,39}$'
        or pg_catalog.jsonb_typeof(x -> 'variants') is distinct from 'array'
        or pg_catalog.jsonb_array_length(x -> 'variants') > 20
        or exists (
          select 1
            from pg_catalog.jsonb_array_elements(x -> 'variants') v
           where pg_catalog.jsonb_typeof(v) <> 'string' or (v #>> '{}') !~ '^[a-z][a-z0-9-]{0,19}$' or (v #>> '{}') = 'control'
        )
  ) then
    raise exception 'each running experiment needs a key and variant keys (never control) in the cookie''s format' using errcode = '22023';
  end if;
  -- Two publishes at once: the later replacement wins whole, never a mix of both.
  lock table private.waitlist_experiment_variants in exclusive mode;
  delete from private.waitlist_experiment_variants;
  insert into private.waitlist_experiment_variants (experiment, variant)
  select distinct x ->> 'key', v
    from pg_catalog.jsonb_array_elements(running) x
   cross join lateral (
     select 'control' as v
     union
     select e #>> '{}' from pg_catalog.jsonb_array_elements(x -> 'variants') e
   ) variants;
  get diagnostics stored = row_count;
  return stored;
end
$$;

comment on function public.waitlist_replace_experiments(jsonb) is
  'Replaces the running experiments and their variant keys (control is added to each); returns the number of pairs stored. service_role only: the site''s server calls it after each Sanity publish.';

revoke all on function public.waitlist_replace_experiments(jsonb) from public, anon, authenticated, service_role;
grant execute on function public.waitlist_replace_experiments(jsonb) to service_role;

-- The founders' counts: every experiment a stored sign-up recorded, running or since stopped. One
-- scan of the list; jit is off: compiling this plan took longer than running it (1.5 s instead of
-- 0.5 s at a million entries here, beside the figures' scan in the console's first byte).
create function public.waitlist_experiment_results()
returns table (experiment text, variant text, signups integer, confirmations integer)
language sql
stable
security definer
set search_path = ''
set jit = off
as $$
  select e.key, e.value #>> '{}', count(*)::integer, (count(*) filter (where w.status <> 'pending'))::integer
    from public.waitlist w
   cross join lateral pg_catalog.jsonb_each(w.experiments) e
   group by 1, 2
   order by 1, 2
$$;

comment on function public.waitlist_experiment_results() is
  'Sign-ups and confirmations (confirmed, invited or joined) per experiment and variant, from the stored entries. service_role only.';

revoke all on function public.waitlist_experiment_results() from public, anon, authenticated, service_role;
grant execute on function public.waitlist_experiment_results() to service_role;
