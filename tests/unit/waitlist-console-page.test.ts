/**
 * The console's page (tools/owner/console/page.ts) with a run of 10,000 people and a queued outbox:
 * a count and the first rows, not a 10,000-row table; the queue's age in words, and where the
 * founders' guide says what to do about it.
 */
import { describe, expect, it } from 'vitest'
import { renderConsolePage, SENDING_PACE_GUIDE, SHOWN_PEOPLE, formatWait, type ConsoleView } from '@/tools/owner/console/page'
import type { InvitedPerson } from '@/tools/owner/owner'
import { tableRows, text } from '../helpers/console-page'

const people: InvitedPerson[] = Array.from({ length: 10_000 }, (_, index) => ({
  place: index + 1,
  name: `Person ${index + 1}`,
  email: `p${index + 1}@page.test`,
}))

function view(overrides: Partial<ConsoleView> = {}): ConsoleView {
  return {
    database: 'http://127.0.0.1:54321',
    readAt: new Date('2026-11-27T09:00:00Z'),
    token: 'token',
    funnel: { signedUp: 12_000, confirmed: 11_000, invited: 0, joined: 0 },
    figures: {
      campaigns: { top: [], others: null, unrecorded: null },
      sites: { top: [], others: null, unrecorded: null },
      signupDays: [],
      confirmationDays: [],
      referrers: [],
    },
    line: [],
    recentInvitations: [],
    backlog: { queued: 0, due: 0, oldest_due_at: null, waited_seconds: null },
    held: [],
    deliveries: [],
    n: 10_000,
    answers: { questions: [], counts: [], inLine: 11_000 },
    segment: null,
    experiments: { results: [], participants: { kind: 'not-configured' } },
    campaigns: { kind: 'not-configured' },
    vitals: { kind: 'not-configured' },
    ...overrides,
  }
}

describe('a run of 10,000', () => {
  it('previews the count and the first rows, and the Invite button names all of them', () => {
    const page = renderConsolePage(view({ preview: { n: 10_000, segment: null, people, fingerprint: 'f' } }))
    expect(tableRows(page, 'Would be invited')).toHaveLength(SHOWN_PEOPLE)
    expect(tableRows(page, 'Would be invited')[0]).toEqual(['1', 'Person 1', 'p1@page.test'])
    expect(text(page)).toContain(`The first ${SHOWN_PEOPLE} of 10,000 people are listed; 9,950 people more after them, in the same order.`)
    expect(page).toContain('<button type="submit">Invite 10,000 people</button>')
    expect(page).toContain('max="10000"')
    expect(page).not.toContain('p51@page.test')
    expect(Buffer.byteLength(page)).toBeLessThan(100_000)
  })

  it('says how many were invited and lists the first of them', () => {
    const page = renderConsolePage(view({ invited: { count: 10_000, people: people.slice(0, SHOWN_PEOPLE), asPreviewed: true } }))
    expect(text(page)).toContain('Invited 10,000 people. Their invitations are in the outbox')
    expect(tableRows(page, 'Invited')).toHaveLength(SHOWN_PEOPLE)
    expect(text(page)).toContain('9,950 people more after them')
  })
})

describe('the e-mails waiting to be sent', () => {
  it('shows how many, how many are due, how long the oldest due one has waited, and where the guide says what to do', () => {
    const page = text(
      renderConsolePage(view({ backlog: { queued: 9_500, due: 9_000, oldest_due_at: '2026-11-27T06:55:00+00:00', waited_seconds: 2 * 3600 + 5 * 60 + 7 } })),
    )
    expect(page).toContain(
      '9,500 e-mails waiting to be sent, 9,000 of them due now. The oldest due e-mail has waited 2 h 5 min (due since 2026-11-27 06:55 UTC).',
    )
    expect(page).toContain(SENDING_PACE_GUIDE)
    expect(SENDING_PACE_GUIDE).toBe('docs/founders.md#sending-pace-the-hourly-e-mail-cap')
  })

  it('says so when nothing waits', () => {
    expect(text(renderConsolePage(view()))).toContain('No e-mail is waiting: the dispatcher has sent everything due.')
  })

  it('words a wait to the unit that matters', () => {
    expect([0, 59, 60, 3599, 3600, 86_399, 90_000].map(formatWait)).toEqual(['0 s', '59 s', '1 min', '59 min', '1 h 0 min', '23 h 59 min', '1 d 1 h'])
  })
})
