-- An address holding a character newer than PostgreSQL 15's Unicode (14.0) that normalises is no
-- longer normalised, and is refused as implausible: the site (Node's Unicode 17.0) and PGlite
-- (15.1) spelled U+A7F1 as "S", this server kept it, so one address had two spellings.
-- Entries already stored keep their spelling (the format check is not revalidated).

-- Whether a text holds a character the engines spell differently: assigned after Unicode 14.0
-- (this server's tables on PostgreSQL 15; PGlite has 15.1, the site's Node a later one) with an
-- NFKC form, a lower case or a combining class of its own. EMAIL_UNSETTLED_RANGES of
-- components/waitlist/email.ts, written by tools/db/unicode-unsettled.ts.
create function waitlist_rules.email_unsettled(value text)
returns boolean
language sql
immutable
strict
parallel safe
set search_path = ''
return value ~ '[\u0897\u1ACF-\u1ADD\u1AE0-\u1AEB\u1C89\uA7CB-\uA7CC\uA7CE\uA7D2\uA7D4\uA7DA\uA7DC\uA7F1\U000105C9\U000105E4\U00010D50-\U00010D65\U00010D69-\U00010D6D\U00010EFA-\U00010EFB\U00010EFD-\U00010EFF\U00011383\U00011385\U0001138E\U00011391\U000113C5\U000113C7-\U000113C8\U000113CE-\U000113D0\U00011F41-\U00011F42\U00016121-\U00016128\U0001612F\U00016D68-\U00016D6A\U00016EA0-\U00016EB8\U0001CCD6-\U0001CCF9\U0001E030-\U0001E06D\U0001E08F\U0001E4EC-\U0001E4EF\U0001E5EE-\U0001E5EF\U0001E6E3\U0001E6E6\U0001E6EE-\U0001E6EF\U0001E6F5]';

revoke all on function waitlist_rules.email_unsettled(text) from public, anon, authenticated, service_role;
grant execute on function waitlist_rules.email_unsettled(text) to anon, authenticated, service_role;

-- normalizeWaitlistEmail() of components/waitlist/email.ts: strip invisibles, NFKC, strip, trim, then the
-- domain lower-cased with each non-ASCII label punycoded (unless it holds a forbidden character,
-- which then fails the format check as it is). An address with an unsettled character is only
-- stripped and trimmed: each engine's NFKC would spell it its own way.
create or replace function waitlist_rules.normalize_email(value text)
returns text
language plpgsql
immutable
strict
parallel safe
set search_path = ''
as $$
declare
  invisible constant text := '[\u00AD\u034F\u180B-\u180F\u200B-\u200D\u2060-\u2064\uFE00-\uFE0F\uFEFF]';
  forbidden constant text := '[\u0000-\u0020\u007F-\u00A0\u00AB\u00BB\u061C\u1680\u2000-\u200F\u2018-\u201F\u2028-\u202F\u2039\u203A\u205F-\u206F\u2329\u232A\u27E8-\u27EF\u3000\u3008-\u3011\u3014-\u301B\uE000-\uF8FF\uFFF0-\uFFFF]';
  cleaned text;
  at integer;
  domain text;
  labels text[];
  label text;
begin
  cleaned := pg_catalog.regexp_replace(value, invisible, '', 'g');
  if waitlist_rules.email_unsettled(cleaned) then
    return public.waitlist_trim(cleaned);
  end if;
  cleaned := pg_catalog.normalize(cleaned, 'NFKC');
  cleaned := public.waitlist_trim(pg_catalog.regexp_replace(cleaned, invisible, '', 'g'));
  at := pg_catalog.length(cleaned) - pg_catalog.strpos(pg_catalog.reverse(cleaned), '@') + 1;
  if pg_catalog.strpos(cleaned, '@') = 0 then
    return cleaned;
  end if;
  domain := pg_catalog.replace(pg_catalog.lower(pg_catalog.substr(cleaned, at + 1)), U&'\3002', '.');
  labels := '{}';
  foreach label in array pg_catalog.string_to_array(domain, '.') loop
    if label ~ '^[\u0001-\u007F]*$' or label ~ forbidden then
      labels := labels || label;
    else
      labels := labels || ('xn--' || waitlist_rules.punycode(label));
    end if;
  end loop;
  return pg_catalog.substr(cleaned, 1, at - 1) || '@' || pg_catalog.array_to_string(labels, '.');
end
$$;

revoke all on function waitlist_rules.normalize_email(text) from public, anon, authenticated, service_role;
grant execute on function waitlist_rules.normalize_email(text) to anon, authenticated, service_role;

-- isPlausibleWaitlistEmail() of components/waitlist/email.ts, on the stored (normalised) value. The
-- pattern is WAITLIST_EMAIL_PATTERN_SOURCE, verbatim.
create or replace function waitlist_rules.email_plausible(email text)
returns boolean
language sql
immutable
strict
parallel safe
set search_path = ''
return email ~ '^[^\u0000-\u0020\u007F-\u00A0\u00AB\u00BB\u061C\u1680\u2000-\u200F\u2018-\u201F\u2028-\u202F\u2039\u203A\u205F-\u206F\u2329\u232A\u27E8-\u27EF\u3000\u3008-\u3011\u3014-\u301B\uE000-\uF8FF\uFFF0-\uFFFF\u0022\u0028\u0029\u002C\u002E\u003A\u003B\u003C\u003E\u0040\u005B\u005C\u005D\u0060\u007B\u007C\u007D]+(?:\.[^\u0000-\u0020\u007F-\u00A0\u00AB\u00BB\u061C\u1680\u2000-\u200F\u2018-\u201F\u2028-\u202F\u2039\u203A\u205F-\u206F\u2329\u232A\u27E8-\u27EF\u3000\u3008-\u3011\u3014-\u301B\uE000-\uF8FF\uFFF0-\uFFFF\u0022\u0028\u0029\u002C\u002E\u003A\u003B\u003C\u003E\u0040\u005B\u005C\u005D\u0060\u007B\u007C\u007D]+)*@(?:[a-z0-9](?:[a-z0-9-]{0,61}[a-z0-9])?\.)+[a-z](?:[a-z0-9-]{0,61}[a-z0-9])?$'
  and pg_catalog.char_length(pg_catalog.split_part(email, '@', -1)) <= 253
  and not waitlist_rules.email_unsettled(email);

revoke all on function waitlist_rules.email_plausible(text) from public, anon, authenticated, service_role;
grant execute on function waitlist_rules.email_plausible(text) to anon, authenticated, service_role;
