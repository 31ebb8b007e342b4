import { defineField } from 'sanity'
import { stringField } from './fields'

/** Site settings → Announcement bar: a line above the header on every page. */
export function announcementField() {
  return defineField({
    name: 'announcement',
    title: 'Announcement bar',
    description: 'A line above the header on every page, e.g. news or an offer.',
    type: 'object',
    group: 'general',
    options: { collapsible: true, collapsed: false },
    fields: [
      defineField({ name: 'enabled', title: 'Show the bar', type: 'boolean', initialValue: false }),
      {
        ...stringField({ name: 'text', title: 'Text', max: 120, required: false }),
        validation: (rule) =>
          rule
            .max(120)
            .custom((value, context) =>
              (context.parent as { enabled?: boolean } | undefined)?.enabled && !value ? 'Write the announcement, or switch the bar off' : true,
            ),
      },
      defineField({ name: 'link', title: 'Link', description: 'Optional. Shown after the text, e.g. "Join the waitlist".', type: 'link' }),
      defineField({
        name: 'dismissible',
        title: 'Visitors can close it',
        description: 'Once closed it stays closed for that visitor (remembered in their browser, no cookie) until the text or link changes.',
        type: 'boolean',
        initialValue: true,
      }),
    ],
  })
}
