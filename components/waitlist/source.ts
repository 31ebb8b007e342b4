/**
 * Where a sign-up came from: the campaign tags (utm_source, utm_medium, utm_campaign) and the
 * referring site's host of the visit's first page, and that page's path. Nothing personal beyond
 * what the form asks: no full referrer URL, no query string, no identifier but the public code of a
 * referral link the visitor followed (`ref`, which names the referrer's entry, not the visitor). Recorded on arrival in
 * this tab's session storage (gone when the tab closes), sent only with a sign-up, and checked
 * and length-limited again by the database (waitlist_*_format constraints). Browser-safe.
 */
import { campaignTag } from '@/lib/variants/campaign-tag'

export const SOURCE_STORAGE_KEY = 'waitlist:source'

export type WaitlistSource = {
  utm_source?: string
  utm_medium?: string
  utm_campaign?: string
  referrer_host?: string
  landing_path?: string
  /** The public code of the referral link the visitor came through (/waitlist?ref=…). */
  ref?: string
}

const HOST = /^(?:[a-z0-9_-]+(?:\.[a-z0-9_-]+)*|\[[0-9a-f:.]+\])$/
const PATH = /^\/[^?#\u0000-\u0020\u007F-\u009F]{0,199}$/

// A referral code as the database issues it; anything else would count for nothing there anyway.
const REFERRAL_CODE = /^[A-Za-z0-9_-]{22}$/
const referralCode = (value: unknown) => (typeof value === 'string' && REFERRAL_CODE.test(value) ? value : undefined)

const host = (value: unknown) => (typeof value === 'string' && value.length <= 253 && HOST.test(value) ? value : undefined)
const path = (value: unknown) => (typeof value === 'string' && PATH.test(value) ? value : undefined)

function referrerHost(referrer: string, own: URL): string | undefined {
  try {
    const url = new URL(referrer)
    return url.host === own.host || !/^https?:$/.test(url.protocol) ? undefined : host(url.hostname)
  } catch {
    return undefined
  }
}

function withValues(source: WaitlistSource): WaitlistSource {
  return Object.fromEntries(Object.entries(source).filter(([, value]) => value !== undefined)) as WaitlistSource
}

/** What a visit's first page says about where it came from. Only fields with a value. */
export function sourceFromLanding(url: URL, referrer: string): WaitlistSource {
  return withValues({
    utm_source: campaignTag(url.searchParams.get('utm_source')),
    utm_medium: campaignTag(url.searchParams.get('utm_medium')),
    utm_campaign: campaignTag(url.searchParams.get('utm_campaign')),
    referrer_host: referrerHost(referrer, url),
    landing_path: path(url.pathname.slice(0, 200)),
    ref: referralCode(url.searchParams.get('ref')),
  })
}

/** Called on every page: keeps the first page of the visit in this tab. */
export function recordLanding(): void {
  try {
    const arrived = sourceFromLanding(new URL(window.location.href), document.referrer)
    if (window.sessionStorage.getItem(SOURCE_STORAGE_KEY) === null) {
      window.sessionStorage.setItem(SOURCE_STORAGE_KEY, JSON.stringify(arrived))
    } else if (arrived.ref) {
      // A friend's link opened later in the visit still counts: the newest link's code wins.
      window.sessionStorage.setItem(SOURCE_STORAGE_KEY, JSON.stringify({ ...readSource(), ref: arrived.ref }))
    }
  } catch {
    // Storage blocked: sign-ups simply carry no source.
  }
}

/** The recorded source, re-checked (storage is the visitor's to edit); {} when there is none. */
export function readSource(): WaitlistSource {
  try {
    const parsed: unknown = JSON.parse(window.sessionStorage.getItem(SOURCE_STORAGE_KEY) ?? '{}')
    if (!parsed || typeof parsed !== 'object') return {}
    const stored = parsed as Record<string, unknown>
    const text = (key: string) => (typeof stored[key] === 'string' ? (stored[key] as string) : null)
    return withValues({
      utm_source: campaignTag(text('utm_source')),
      utm_medium: campaignTag(text('utm_medium')),
      utm_campaign: campaignTag(text('utm_campaign')),
      referrer_host: host(stored.referrer_host),
      landing_path: path(stored.landing_path),
      ref: referralCode(stored.ref),
    })
  } catch {
    return {}
  }
}

/** "How they found us" in a few words, for the owner's list and Slack; null when nothing was recorded. */
export function describeWaitlistSource(source: { [K in Exclude<keyof WaitlistSource, 'ref'>]-?: string | null | undefined }): string | null {
  const campaign = [source.utm_source, source.utm_medium, source.utm_campaign].filter(Boolean).join(' / ')
  const parts = [
    campaign && `campaign ${campaign}`,
    source.referrer_host && `from ${source.referrer_host}`,
    source.landing_path && `landed on ${source.landing_path}`,
  ].filter(Boolean)
  return parts.length ? parts.join(', ') : null
}
