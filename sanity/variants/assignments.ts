/**
 * The experiments a participant takes part in, as the `experiments` cookie carries them: each
 * experiment's key and the variant its visitor was assigned (`control` for the published
 * section). One format for every reader: the proxy that assigns and rewrites, the page that
 * draws the variant, the analytics client that labels events, the join form that records the
 * variants with a sign-up. The cookie is set only after the visitor accepted analytics and is
 * removed when they decline; it names no person, only variant keys.
 *
 * Anyone can write any cookie, so reading is strict: only well-formed keys, at most
 * MAX_ASSIGNMENTS pairs, the first of a repeated key. Whether an experiment is running, and
 * whether a variant exists, is for the reader with the content (and the database) to decide.
 */

export const EXPERIMENTS_COOKIE = 'experiments'
/** How long an assignment is kept: long enough for an experiment's run, stated in the Cookie Policy. */
export const EXPERIMENTS_COOKIE_MAX_AGE_SECONDS = 60 * 60 * 24 * 90
/** The variant every non-participant sees: the section as published on the page. */
export const CONTROL_VARIANT = 'control'
export const MAX_ASSIGNMENTS = 20

/** An experiment's key: lower-case letters, digits and hyphens, starting with a letter (PostHog's flag key). */
export const EXPERIMENT_KEY_PATTERN = /^[a-z][a-z0-9-]{1,39}$/
/** A variant's key, `control` included. */
export const VARIANT_KEY_PATTERN = /^[a-z][a-z0-9-]{0,19}$/

export type Assignments = Readonly<Record<string, string>>

export const isExperimentKey = (value: unknown): value is string => typeof value === 'string' && EXPERIMENT_KEY_PATTERN.test(value)
export const isVariantKey = (value: unknown): value is string => typeof value === 'string' && VARIANT_KEY_PATTERN.test(value)

/** The pairs of a cookie value (or of any untrusted record) that are well formed; nothing else. */
export function parseAssignments(value: string | null | undefined): Assignments {
  if (!value || value.length > 2048) return {}
  const result: Record<string, string> = {}
  let count = 0
  for (const pair of value.split('&')) {
    if (count === MAX_ASSIGNMENTS) break
    const at = pair.indexOf('=')
    if (at < 0) continue
    const key = pair.slice(0, at)
    const variant = pair.slice(at + 1)
    if (!isExperimentKey(key) || !isVariantKey(variant) || Object.hasOwn(result, key)) continue
    result[key] = variant
    count++
  }
  return result
}

/** The cookie value of `assignments`: every character is a cookie-octet, so no quoting or encoding. */
export function serializeAssignments(assignments: Assignments): string {
  return Object.entries(assignments)
    .filter(([key, variant]) => isExperimentKey(key) && isVariantKey(variant))
    .slice(0, MAX_ASSIGNMENTS)
    .map(([key, variant]) => `${key}=${variant}`)
    .join('&')
}

/** One cookie's value from a `Cookie` header or `document.cookie`; null when it is not there. */
export function cookieValue(cookies: string, name: string): string | null {
  for (const pair of cookies.split(';')) {
    const at = pair.indexOf('=')
    if (at > 0 && pair.slice(0, at).trim() === name) return pair.slice(at + 1).trim()
  }
  return null
}

/**
 * The assignments in a `Cookie` header or `document.cookie`: the `experiments` cookie's
 * well-formed pairs, or none. The cookie exists only for a visitor who accepted analytics (the
 * proxy sets it then and removes it when they decline), so a visitor without consent sends nothing.
 */
export const assignmentsFromCookies = (cookies: string): Assignments => parseAssignments(cookieValue(cookies, EXPERIMENTS_COOKIE))
