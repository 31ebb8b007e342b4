/**
 * Saves a waitlist sign-up and classifies the outcome per the product spec's error catalogue
 * (its waitlist errors). Browser-safe.
 *
 * Deliberate departures from that spec:
 * - The row is NOT requested back: read-back would need a SELECT grant for the
 *   public key, i.e. anyone could read the list (supabase/schemas/02_waitlist.sql, its header).
 *   A 201 without error is the proof that the row is stored.
 * - "Client not available: log it and report success" is dropped: the visitor
 *   is only ever told "You're on the list!" when the database has the row.
 */
import type { WaitlistFormInput, WaitlistRow } from './rules'
import { normalizeWaitlistInput } from './rules'
import { DEFAULT_LANGUAGE } from '@/lib/i18n/languages'
import type { WaitlistSource } from './source'
import { assignmentsFromCookies, cookieValue, type Assignments } from '@/sanity/variants/assignments'
import { CONSENT_COOKIE, CONSENT_COOKIE_GRANTED } from '@/components/analytics/consent-cookie'
import type { Answers } from './answers'
export { assignmentsFromCookies } from '@/sanity/variants/assignments'

export const DUPLICATE_MESSAGE = 'This email is already on the waitlist!'
export const SAVE_FAILED_MESSAGE = 'Failed to save to waitlist'

export type JoinResult =
  | { status: 'saved' }
  | { status: 'duplicate'; message: typeof DUPLICATE_MESSAGE }
  | { status: 'rate_limited' }
  /** The database refused the answers: the page was drawn before the questions were last published. */
  | { status: 'questions_changed'; message: string }
  | { status: 'failed'; message: string; code?: string; httpStatus?: number }

/** The part of supabase-js' response this module reads. */
export interface WaitlistInsertResponse {
  error: { message: string; code?: string } | null
  status: number
}

/**
 * The slice of a SupabaseClient that joinWaitlist uses; a real client fits,
 * and tests can pass a small fake.
 */
export interface WaitlistClient {
  from(table: 'waitlist'): { insert(row: WaitlistRow & WaitlistSource & WaitlistChoices): PromiseLike<WaitlistInsertResponse> }
}

/**
 * What the person chose beside their details: product updates by e-mail (sent only when ticked;
 * the database's default is off, and it records when it was turned on by its own clock), and the
 * language of the page they signed up on (sent unless English, the database's default): every
 * e-mail to them is written in it. And the experiment variants they were assigned (sent only when
 * there are some): the database keeps the pairs of running experiments and drops the rest
 * (supabase/schemas/12_experiments.sql).
 */
export type WaitlistChoices = { updates?: true; language?: string; experiments?: Assignments; answers?: Answers }

/**
 * The variants a sign-up records: the experiments cookie's, only while the visitor still takes part
 * as the proxy judges it (components/variants/participation.ts, mayTakePart): analytics accepted,
 * and a browser that does not ask not to be tracked. One who turned on Global Privacy Control or Do
 * Not Track since was shown control, and their cookie's variant is one they never saw.
 */
export function assignmentsToRecord(cookies: string, refusesTracking: boolean): Assignments {
  if (refusesTracking || cookieValue(cookies, CONSENT_COOKIE) !== CONSENT_COOKIE_GRANTED) return {}
  return assignmentsFromCookies(cookies)
}

function isDuplicate(error: { message: string; code?: string }): boolean {
  // The first wording is for a future database function raising its own message.
  return error.code === '23505' || error.message.includes('already on the waitlist') || error.message.includes('duplicate key')
}

/**
 * `source`: where the visit came from (./source.ts), stored with the row; `updates`: the form's
 * box; `experiments`: the visitor's assignments (assignmentsToRecord); `answers`: the questions'
 * answers (./answers.ts), which the database checks against the questions published now.
 */
export async function joinWaitlist(
  client: WaitlistClient,
  input: WaitlistFormInput,
  source: WaitlistSource = {},
  {
    updates = false,
    language = DEFAULT_LANGUAGE,
    experiments = {},
    answers = {},
  }: { updates?: boolean; language?: string; experiments?: Assignments; answers?: Answers } = {},
): Promise<JoinResult> {
  let response: WaitlistInsertResponse
  try {
    // No .select(): see the module comment.
    response = await client.from('waitlist').insert({
      ...source,
      ...normalizeWaitlistInput(input),
      ...(updates ? { updates: true as const } : {}),
      ...(language !== DEFAULT_LANGUAGE ? { language } : {}),
      ...(Object.keys(experiments).length > 0 ? { experiments } : {}),
      ...(Object.keys(answers).length > 0 ? { answers } : {}),
    })
  } catch {
    return { status: 'failed', message: SAVE_FAILED_MESSAGE }
  }
  const { error, status } = response

  if (!error) {
    if (status === 201) return { status: 'saved' }
    // Anything else (a proxy's 200, a 204) does not prove the row exists.
    return { status: 'failed', message: SAVE_FAILED_MESSAGE, httpStatus: status }
  }
  // supabase-js turns a rejected fetch (offline, DNS, CORS) into an error with status 0
  // instead of throwing: that is the catalogue's "exception during save".
  if (status === 0) return { status: 'failed', message: SAVE_FAILED_MESSAGE }
  // Before the duplicate check: a 429 never stored anything, whatever its body says. The
  // database's own limit answers 429 with a PostgREST body (code WL429), a gateway with its own.
  if (status === 429) return { status: 'rate_limited' }
  if (isDuplicate(error)) return { status: 'duplicate', message: DUPLICATE_MESSAGE }
  // WLA01 to WLA04: supabase/schemas/15_questions.sql refused an answer the form judged good.
  if (error.code?.startsWith('WLA')) return { status: 'questions_changed', message: error.message }
  return {
    status: 'failed',
    message: error.message,
    ...(error.code ? { code: error.code } : {}),
    httpStatus: status,
  }
}
