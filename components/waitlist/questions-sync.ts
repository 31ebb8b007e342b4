import 'server-only'
import { definePublishedSetSync, type SetSyncDeps, type SetSyncOutcome } from '@/lib/supabase/published-set'
import { readPublished } from '@/sanity/content/published'
import { publishedQuestionsQuery } from '@/sanity/queries'
import { publishableQuestions, type PublishedQuestion } from '@/sanity/questions/rules'

/**
 * Keeps the database's copy of the waitlist page's questions (private.waitlist_questions,
 * supabase/schemas/15_questions.sql) equal to what is published in Sanity: the set every sign-up's
 * answers are checked against. Called on every publish webhook (app/api/revalidate) before the
 * pages change, so the form never asks what the database does not know yet, and on each scheduled
 * outbox run (app/api/outbox/dispatch) for a webhook that failed or never came.
 * A read or store that fails keeps the last set (lib/supabase/published-set.ts): an unreachable
 * Sanity must not look like "the page asks nothing", which would drop every answer.
 */

export type QuestionSyncDeps = SetSyncDeps<PublishedQuestion>
export type QuestionSyncOutcome = SetSyncOutcome<'questions'>

const questionSync = definePublishedSetSync({
  tag: '[questions]',
  what: "the waitlist page's questions",
  count: 'questions',
  kept: 'The last set of questions at sign-up is kept',
  check: (answer) => {
    const { questions, skipped } = publishableQuestions(answer)
    return { items: questions, skipped }
  },
  readPublished: () => readPublished(publishedQuestionsQuery),
  store: (client, questions) => client.rpc('waitlist_replace_questions', { questions }),
  rpc: 'waitlist_replace_questions',
})

export const syncPublishedQuestions = questionSync.syncPublished
/** The sync as the deployment configures it: Sanity (or the seed) and the service-role key. */
export const configuredQuestionSync = questionSync.configured
/** Runs the configured sync and logs what it did; never throws. */
export const syncQuestions = questionSync.sync
