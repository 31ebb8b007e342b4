/**
 * A campaign tag (utm_source, utm_medium, utm_campaign) as the site keeps it: without the characters
 * the database refuses in one (controls, bidi and invisible format characters, lone surrogates,
 * which no database can store), trimmed, at most 100 characters, case as written; undefined when
 * nothing is left. One rule for what a sign-up records (components/waitlist/source.ts) and for the
 * campaign a request names (sanity/variants/campaign-rules.ts), so a campaign's sign-ups are the ones its
 * visitors made. Browser-safe.
 */
const UNSAFE =
  /[\u0000-\u001F\u007F-\u009F\u061C\u200B-\u200F\u2028-\u202E\u2060-\u2069\uFEFF]|[\uD800-\uDBFF](?![\uDC00-\uDFFF])|(?<![\uD800-\uDBFF])[\uDC00-\uDFFF]/g

/** The longest tag kept (the database's waitlist_utm_*_format constraints). */
export const CAMPAIGN_TAG_MAX = 100

export function campaignTag(value: string | null | undefined): string | undefined {
  if (value === null || value === undefined) return undefined
  const cleaned = [...value.replace(UNSAFE, '').trim()].slice(0, CAMPAIGN_TAG_MAX).join('').trim()
  return cleaned === '' ? undefined : cleaned
}
