import { isbot } from 'isbot'
import type { NextRequest, NextResponse } from 'next/server'
import { CONSENT_COOKIE, CONSENT_COOKIE_GRANTED } from '@/components/analytics/consent-cookie'
import { EXPERIMENTS_COOKIE, EXPERIMENTS_COOKIE_MAX_AGE_SECONDS, parseAssignments, serializeAssignments } from '@/sanity/variants/assignments'
import { participate } from './assign'
import { runningExperiments } from './running'
import { variantSegment } from './segment'

/**
 * Who takes part: a visitor whose consent cookie says granted, whose browser does not ask not to be
 * tracked (Global Privacy Control, Do Not Track) and who is not a known crawler. Everyone else sees
 * control, and nothing about them is stored. Only cookies and headers: no look-up.
 */
export function mayTakePart(request: Pick<NextRequest, 'cookies' | 'headers'>): boolean {
  if (request.cookies.get(CONSENT_COOKIE)?.value !== CONSENT_COOKIE_GRANTED) return false
  if (request.headers.get('sec-gpc') === '1' || request.headers.get('dnt') === '1') return false
  return !isbot(request.headers.get('user-agent') ?? '')
}

export type VariantRewrite = { segment: string; cookie: string | null }

/**
 * What the running experiments and the campaign versions the address names (`campaigns`, matched
 * by the proxy: sanity/variants/live-campaigns.ts) do to the page at `address` (its path with its language's
 * prefix): `varied` when an experiment varies it, whoever asks (its answer then depends on the
 * visitor's cookies, so a shared cache in front of the site must key on them: the proxy says
 * `Vary: Cookie`); `rewrite`, the variant page to draw and the experiments cookie to set when this
 * visit assigned them anew, or null for the page as published. A campaign version takes its section
 * from the experiment there: nobody is assigned to that one on this request.
 */
export async function experimentsOn(
  request: Pick<NextRequest, 'cookies' | 'headers'>,
  language: string,
  address: string,
  campaigns: readonly { key: string; sectionKey: string }[] = [],
): Promise<{ varied: boolean; rewrite: VariantRewrite | null }> {
  const versions = campaigns.map((campaign) => campaign.key)
  const pageAsIs = versions.length ? { segment: variantSegment(language, {}, versions), cookie: null } : null
  let running
  try {
    running = await runningExperiments()
  } catch {
    // Logged where it was read: everyone sees the page as published until the next read works.
    return { varied: false, rewrite: pageAsIs }
  }
  const taken = new Set(campaigns.map((campaign) => campaign.sectionKey))
  // An experiment on a section a campaign version takes runs for nobody here: with no other, the
  // answer does not depend on the cookies, and a shared cache may keep it.
  const experiments = (running.byPath.get(address) ?? []).filter((experiment) => !experiment.sectionKey || !taken.has(experiment.sectionKey))
  if (!experiments.length) return { varied: false, rewrite: pageAsIs }
  if (!mayTakePart(request)) return { varied: true, rewrite: pageAsIs }
  const held = parseAssignments(request.cookies.get(EXPERIMENTS_COOKIE)?.value)
  const { shown, assignments, changed } = participate(experiments, held, () => crypto.randomUUID())
  if (!changed && Object.keys(shown).length === 0) return { varied: true, rewrite: pageAsIs }
  return { varied: true, rewrite: { segment: variantSegment(language, shown, versions), cookie: changed ? serializeAssignments(assignments) : null } }
}

/**
 * The cookie the join form reads in the browser, so not httpOnly; never sent to another site.
 * Written as a header, not with `response.cookies.set`, which percent-encodes the value
 * (`hero-headline%3Db`): the value is cookie-octets already (serializeAssignments), and every
 * reader parses it as written.
 */
export function setExperimentsCookie(response: NextResponse, value: string, secure: boolean): NextResponse {
  response.headers.append(
    'set-cookie',
    `${EXPERIMENTS_COOKIE}=${value}; Path=/; Max-Age=${EXPERIMENTS_COOKIE_MAX_AGE_SECONDS}; SameSite=Lax${secure ? '; Secure' : ''}`,
  )
  return response
}
