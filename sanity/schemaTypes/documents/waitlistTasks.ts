import { ClipboardIcon } from '@sanity/icons/Clipboard'
import { defineType } from 'sanity'
import { researchTasksField } from '../objects/research-tasks'

/**
 * The research tasks on a confirmed person's own page: one document for every language (a task is
 * offered in all of them or none). Publishing it copies them to the database, which from then on
 * takes answers to these tasks only (components/waitlist/tasks-sync.ts).
 */
export const waitlistTasks = defineType({
  name: 'waitlistTasks',
  title: 'Research tasks',
  type: 'document',
  icon: ClipboardIcon,
  fields: [researchTasksField],
  preview: {
    select: { tasks: 'tasks' },
    prepare: ({ tasks }: { tasks?: unknown[] }) => ({ title: 'Research tasks', subtitle: `${tasks?.length ?? 0} tasks` }),
  },
})
