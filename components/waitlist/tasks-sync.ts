import 'server-only'
import { definePublishedSetSync, type SetSyncDeps, type SetSyncOutcome } from '@/lib/supabase/published-set'
import { readPublished } from '@/sanity/content/published'
import { publishedTasksQuery } from '@/sanity/queries'
import { publishableTasks, type PublishedTask } from '@/sanity/tasks/rules'

/**
 * Keeps the database's copy of the research tasks (private.waitlist_tasks,
 * supabase/schemas/19_tasks.sql) equal to what is published in Sanity, words included: the database
 * stores each answer with the task's and questions' words in the person's language. Copied on every
 * publish webhook (app/api/revalidate) before the pages change, so no own page offers a task the
 * database does not know, and on each scheduled outbox run (app/api/outbox/dispatch). A read or
 * store that fails keeps the last set (lib/supabase/published-set.ts).
 */

export type TaskSyncDeps = SetSyncDeps<PublishedTask>
export type TaskSyncOutcome = SetSyncOutcome<'tasks'>

const taskSync = definePublishedSetSync({
  tag: '[tasks]',
  what: 'the research tasks',
  count: 'tasks',
  kept: 'The last set of research tasks is kept',
  check: (answer) => {
    const { tasks, skipped } = publishableTasks(answer)
    return { items: tasks, skipped }
  },
  readPublished: () => readPublished(publishedTasksQuery),
  store: (client, tasks) => client.rpc('waitlist_replace_tasks', { tasks }),
  rpc: 'waitlist_replace_tasks',
})

export const syncPublishedTasks = taskSync.syncPublished
export const configuredTaskSync = taskSync.configured
/** Runs the configured sync and logs what it did; never throws. */
export const syncTasks = taskSync.sync
