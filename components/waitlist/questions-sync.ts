import 'server-only'
import { configuredServiceClient } from '@/lib/supabase/configured'
import { readPublished } from '@/sanity/content/published'
import { publishedQuestionsQuery } from '@/sanity/queries'
import { publishableQuestions, type PublishedQuestion } from '@/sanity/questions/rules'

/**
 * Keeps the database's copy of the waitlist page's questions (private.waitlist_questions,
 * supabase/schemas/15_questions.sql) equal to what is published in Sanity: the set every sign-up's
 * answers are checked against. Called on every publish webhook (app/api/revalidate) before the
 * pages change, so the form never asks what the database does not know yet, and on each scheduled
 * outbox run (app/api/outbox/dispatch) for a webhook that failed or never came.
 *
 * A read that fails or answers something other than a list keeps the last set: an unreachable
 * Sanity must not look like "the page asks nothing", which would drop every answer.
 */

export type QuestionSyncDeps = {
  /** The published questions, as sanity/queries.ts publishedQuestionsQuery answers. */
  read: () => Promise<unknown>
  /** Replaces the database's set; resolves to the number of questions stored. */
  replace: (questions: PublishedQuestion[]) => Promise<number>
}

export type QuestionSyncOutcome = { kind: 'synced'; questions: number; skipped: string[] } | { kind: 'kept'; reason: string } | { kind: 'not-configured' }

const message = (error: unknown) => (error instanceof Error ? error.message : String(error))

export async function syncPublishedQuestions(deps: QuestionSyncDeps): Promise<QuestionSyncOutcome> {
  let answer: unknown
  try {
    answer = await deps.read()
  } catch (error) {
    return { kind: 'kept', reason: `could not read the waitlist page's questions: ${message(error)}` }
  }
  if (!Array.isArray(answer)) return { kind: 'kept', reason: "the waitlist page's questions query did not answer a list" }
  const { questions, skipped } = publishableQuestions(answer)
  try {
    return { kind: 'synced', questions: await deps.replace(questions), skipped }
  } catch (error) {
    return { kind: 'kept', reason: `could not store the waitlist page's questions: ${message(error)}` }
  }
}

/** The sync as the deployment configures it: Sanity (or the seed) and the service-role key. */
export function configuredQuestionSync(): QuestionSyncDeps | null {
  const client = configuredServiceClient()
  if (!client) return null
  return {
    // Past every cache: the webhook arrives the moment the page is published.
    read: () => readPublished(publishedQuestionsQuery),
    replace: async (questions) => {
      const { data, error, status } = await client.rpc('waitlist_replace_questions', { questions })
      if (error) throw new Error(`waitlist_replace_questions failed (HTTP ${status}${error.code ? ` ${error.code}` : ''}): ${error.message}`)
      return data
    },
  }
}

/** Runs the configured sync and logs what it did; never throws. */
export async function syncQuestions(deps: QuestionSyncDeps | null = configuredQuestionSync()): Promise<QuestionSyncOutcome> {
  if (!deps) return { kind: 'not-configured' }
  const outcome = await syncPublishedQuestions(deps)
  if (outcome.kind === 'kept') console.error(`[questions] The last set of questions at sign-up is kept: ${outcome.reason}`)
  else if (outcome.kind === 'synced' && outcome.skipped.length > 0) console.warn(`[questions] Left out of the database's set: ${outcome.skipped.join(', ')}`)
  return outcome
}
