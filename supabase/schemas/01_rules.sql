-- The field rules, shared with TypeScript: what a sign-up's name, e-mail and project may be.
--
-- Guarantees: the inserting role can evaluate every rule (triggers and check constraints run as
-- it), and each rule is the same function the browser runs:
--   * waitlist_trim: String#trim's whitespace set, written out (btrim only removes spaces);
--   * waitlist_rules.normalize_email: invisible characters stripped, NFKC, trimmed, the domain
--     lower-cased and IDNA-encoded (waitlist_rules.punycode, tested against url.domainToASCII);
--     never applied to an address with a character newer than PostgreSQL 15's Unicode that
--     normalises (waitlist_rules.email_unsettled), which is then never plausible either;
--   * waitlist_rules.email_plausible: dot-separated atoms, one @, a domain of valid labels; no
--     spaces, controls, quotes, brackets, commas, semicolons or bidi controls;
--   * waitlist_rules.clean_text: a name, company or short answer trimmed, and '' when it is blank:
--     nothing left once whitespace and the characters that show nothing by themselves are taken
--     out (Unicode's Default_Ignorable_Code_Point, tag characters and Hangul fillers among them,
--     and U+2800 BRAILLE PATTERN BLANK). Inside text they stay;
--   * waitlist_rules.plain_text: no control, line-break, bidi-control or invisible characters in a
--     name or company (joiners stay: Persian and emoji sequences need them);
--   * waitlist_rules.mailbox_key: what the big providers document as one inbox (googlemail.com is
--     gmail.com, Gmail ignores dots, plus tags dropped at Gmail, Outlook.com, Proton, Fastmail);
--     it keys the e-mail caps, the self-referral check and the referral ledger.
-- The character classes are copied verbatim from the TypeScript; property-based tests check that
-- the two agree (tests/integration/waitlist-rules-agree.test.ts, waitlist-email-agree.test.ts).
--
-- TypeScript twins: components/waitlist/rules.ts and components/waitlist/email.ts.

-- Trims the same characters as trimWaitlistText() in components/waitlist/rules.ts (String#trim's set,
-- written out). Plain btrim() only removes spaces, and [[:space:]] depends on the locale.
-- E-strings have no \v escape, hence \u000B.
create function public.waitlist_trim(value text)
returns text
language sql
immutable
strict
parallel safe
set search_path = ''
return pg_catalog.btrim(
  value,
  E'\t\n\u000B\f\r \u00A0\u1680\u2000\u2001\u2002\u2003\u2004\u2005\u2006\u2007\u2008\u2009\u200A\u2028\u2029\u202F\u205F\u3000\uFEFF'
);

comment on function public.waitlist_trim(text) is
  'Trims the whitespace set shared with components/waitlist/rules.ts (WAITLIST_WHITESPACE).';

revoke all on function public.waitlist_trim(text) from public, anon, authenticated, service_role;
grant execute on function public.waitlist_trim(text) to anon, authenticated, service_role;

-- RFC 3492 punycode of one label, without the xn-- prefix. Mirrors punycodeEncode() in
-- components/waitlist/email.ts step for step.
create function waitlist_rules.punycode(label text)
returns text
language plpgsql
immutable
strict
parallel safe
set search_path = ''
as $$
declare
  points integer[] := array(
    select pg_catalog.ascii(c.ch) from pg_catalog.unnest(pg_catalog.string_to_array(label, null)) with ordinality as c(ch, i) order by c.i
  );
  total integer := coalesce(pg_catalog.array_length(points, 1), 0);
  output text := '';
  basic integer;
  handled integer;
  n integer := 128;
  delta bigint := 0;
  bias integer := 72;
  m integer;
  p integer;
  q bigint;
  k integer;
  t integer;
  d bigint;
  first boolean;
begin
  foreach p in array points loop
    if p < 128 then output := output || pg_catalog.chr(p); end if;
  end loop;
  basic := pg_catalog.length(output);
  handled := basic;
  if basic > 0 then output := output || '-'; end if;
  while handled < total loop
    select min(x) into m from pg_catalog.unnest(points) as x where x >= n;
    delta := delta + (m - n)::bigint * (handled + 1);
    n := m;
    foreach p in array points loop
      if p < n then delta := delta + 1; end if;
      if p = n then
        q := delta;
        k := 36;
        loop
          t := case when k <= bias then 1 when k >= bias + 26 then 26 else k - bias end;
          exit when q < t;
          d := t + (q - t) % (36 - t);
          output := output || pg_catalog.chr((case when d < 26 then 97 + d else 22 + d end)::integer);
          q := (q - t) / (36 - t);
          k := k + 36;
        end loop;
        output := output || pg_catalog.chr((case when q < 26 then 97 + q else 22 + q end)::integer);
        -- adapt(delta, handled + 1, handled = basic)
        first := handled = basic;
        d := case when first then delta / 700 else delta / 2 end;
        d := d + d / (handled + 1);
        k := 0;
        while d > 455 loop
          d := d / 35;
          k := k + 36;
        end loop;
        bias := k + (36 * d) / (d + 38);
        delta := 0;
        handled := handled + 1;
      end if;
    end loop;
    delta := delta + 1;
    n := n + 1;
  end loop;
  return output;
end
$$;

revoke all on function waitlist_rules.punycode(text) from public, anon, authenticated, service_role;
grant execute on function waitlist_rules.punycode(text) to anon, authenticated, service_role;

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
create function waitlist_rules.normalize_email(value text)
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
create function waitlist_rules.email_plausible(email text)
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

create function waitlist_rules.plain_text(value text)
returns boolean
language sql
immutable
strict
parallel safe
set search_path = ''
-- C0 and C1 controls (line breaks and tabs among them), the line and paragraph separators, bidi
-- controls and isolates, zero-width space, word joiner and invisible operators, the BOM, and the
-- interlinear annotation characters. Mirrored by PLAIN_TEXT_FORBIDDEN in components/waitlist/rules.ts.
return value !~ '[\u0000-\u001F\u007F-\u009F\u061C\u200B\u200E\u200F\u2028-\u202E\u2060-\u206F\uFEFF\uFFF9-\uFFFB]';

revoke all on function waitlist_rules.plain_text(text) from public, anon, authenticated, service_role;
grant execute on function waitlist_rules.plain_text(text) to anon, authenticated, service_role;

-- cleanWaitlistText() of components/waitlist/rules.ts, the class WAITLIST_INVISIBLE_CLASS verbatim.
-- Blank text becomes '' rather than failing a new check: a check is evaluated again on every update
-- of a row, so one on the name would refuse confirming, crediting or inviting anyone stored with a
-- blank name under the older rules (and an invitation of the next hundred with them). Cleaned to '',
-- a new blank name fails waitlist_name_not_blank and a blank answer is no answer, while rows
-- already stored keep their value and their way through the line.
create function waitlist_rules.clean_text(value text)
returns text
language sql
immutable
strict
parallel safe
set search_path = ''
return case
  when public.waitlist_trim(pg_catalog.regexp_replace(value, '[\u00AD\u034F\u061C\u115F\u1160\u17B4\u17B5\u180B-\u180F\u200B-\u200F\u202A-\u202E\u2060-\u206F\u2800\u3164\uFE00-\uFE0F\uFEFF\uFFA0\uFFF0-\uFFF8\U0001BCA0-\U0001BCA3\U0001D173-\U0001D17A\U000E0000-\U000E0FFF]', '', 'g')) = '' then ''
  else public.waitlist_trim(value)
end;

comment on function waitlist_rules.clean_text(text) is
  'A name, company or short answer as stored: trimmed, and '''' when only whitespace and invisible characters (components/waitlist/rules.ts, WAITLIST_INVISIBLE_CLASS) remain.';

revoke all on function waitlist_rules.clean_text(text) from public, anon, authenticated, service_role;
grant execute on function waitlist_rules.clean_text(text) to anon, authenticated, service_role;

create function waitlist_rules.mailbox_key(email text)
returns text
language plpgsql
immutable
strict
parallel safe
set search_path = ''
as $$
declare
  address text := pg_catalog.lower(email);
  at integer := pg_catalog.length(address) - pg_catalog.strpos(pg_catalog.reverse(address), '@') + 1;
  local text;
  domain text;
begin
  if pg_catalog.strpos(address, '@') = 0 then
    return address;
  end if;
  local := pg_catalog.substr(address, 1, at - 1);
  domain := pg_catalog.substr(address, at + 1);
  domain := case domain
    when 'googlemail.com' then 'gmail.com'
    when 'protonmail.com' then 'proton.me'
    when 'protonmail.ch' then 'proton.me'
    when 'pm.me' then 'proton.me'
    when 'me.com' then 'icloud.com'
    when 'mac.com' then 'icloud.com'
    else domain
  end;
  if domain in ('gmail.com', 'outlook.com', 'hotmail.com', 'hotmail.co.uk', 'hotmail.fr', 'live.com', 'msn.com', 'proton.me', 'fastmail.com') then
    local := pg_catalog.split_part(local, '+', 1);
  end if;
  if domain = 'gmail.com' then
    local := pg_catalog.replace(local, '.', '');
  end if;
  return local || '@' || domain;
end
$$;

revoke all on function waitlist_rules.mailbox_key(text) from public, anon, authenticated, service_role;
-- Every inserting role evaluates it: the waitlist_mailbox index (16_imports.sql) is on it.
grant execute on function waitlist_rules.mailbox_key(text) to anon, authenticated, service_role;
