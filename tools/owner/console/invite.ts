/**
 * "Invite next N" from the page, the console's twin of `npm run waitlist:invite -- --next N`
 * (inviteFromLine, public.waitlist_invite_next). The page first shows who the next N are (a dry
 * run), and the Invite button carries a fingerprint of that list. The database itself only knows
 * "the next N": a second press of a stale page (the back button, a double click, a second tab)
 * would invite the N after them. So the console invites only while the next N are still the people
 * the owner saw, and one press at a time; otherwise nobody is invited and the new list is shown.
 * Between that check and the invitation the line can still change (a confirmation, a referral, a
 * `waitlist:invite` run elsewhere); the database then invites its next N, one run at a time, and
 * the page shows exactly whom it did invite.
 */
import { createHash } from 'node:crypto'
import { inviteFromLine, type InvitedPerson, type OwnerClient, type Segment } from '../owner'

/**
 * Most people one press may invite, as many as public.waitlist_invite_next takes. The page lists the
 * first of them and counts the rest (page.ts, SHOWN_PEOPLE); the form carries a fingerprint, not the list.
 */
export const MAX_INVITE = 10_000

/** Who would be invited: the next `n` in line, of those in `segment` when there is one. */
export type Preview = { n: number; segment: Segment | null; people: InvitedPerson[]; fingerprint: string }
export type Invitation = { outcome: 'invited'; people: InvitedPerson[]; asPreviewed: boolean } | { outcome: 'changed'; preview: Preview }

/** Names nobody (a hash of the e-mails in line order), so the form carries no personal data. */
function fingerprint(people: readonly InvitedPerson[]): string {
  return createHash('sha256')
    .update(JSON.stringify(people.map((person) => person.email)))
    .digest('base64url')
}

export function createInviter(client: OwnerClient) {
  let queue: Promise<unknown> = Promise.resolve()
  /** One at a time: the second of two presses checks the line after the first has invited. */
  const serially = <T>(work: () => Promise<T>): Promise<T> => {
    const run = queue.then(work)
    queue = run.catch(() => {})
    return run
  }

  async function preview(n: number, segment: Segment | null = null): Promise<Preview> {
    const { people } = await inviteFromLine(client, { next: n, segment }, true)
    return { n, segment, people, fingerprint: fingerprint(people) }
  }

  return {
    preview,
    /** Invites the next `n` (of the segment) if they are still the previewed people (`expected` is the preview's fingerprint). */
    invite: (n: number, segment: Segment | null, expected: string): Promise<Invitation> =>
      serially(async () => {
        const now = await preview(n, segment)
        if (now.people.length === 0 || now.fingerprint !== expected) return { outcome: 'changed', preview: now }
        const { people } = await inviteFromLine(client, { next: n, segment }, false)
        return { outcome: 'invited', people, asPreviewed: fingerprint(people) === expected }
      }),
  }
}

export type Inviter = ReturnType<typeof createInviter>
