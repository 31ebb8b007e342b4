import { expect } from '@playwright/test'
import { receivedHeaders } from '../tools/local/local-mail'
import { E2E } from '../tools/test/e2e-env'

// What arrived in the e2e suite's maildev (its REST API), as a person would open their inbox.

export type ReceivedEmail = { id: string; to: { address: string; name: string }[]; subject: string; text: string; html: string }

const mailWeb = `http://127.0.0.1:${E2E.mailWebPort}`
const mailApi = `${mailWeb}/api/email`

/** An e-mail's headers as it was sent (List-Unsubscribe and List-Unsubscribe-Post among them). */
export const headersOf = (email: Pick<ReceivedEmail, 'id'>) => receivedHeaders(mailWeb, email.id)

/** Every e-mail to `address` (with `subject`, if given), oldest first. */
export async function emailsTo(address: string, subject?: string): Promise<ReceivedEmail[]> {
  const inbox = (await (await fetch(mailApi)).json()) as ReceivedEmail[]
  return inbox.filter((item) => item.to.some((to) => to.address === address) && (subject === undefined || item.subject === subject))
}

/** The newest e-mail to `address` (with `subject`, if given) once there are more than `after` of them. */
export async function emailTo(address: string, { subject, after = 0 }: { subject?: string; after?: number } = {}): Promise<ReceivedEmail> {
  let found: ReceivedEmail[] = []
  await expect
    .poll(async () => (found = await emailsTo(address, subject)).length, {
      timeout: 15_000,
      message: `an e-mail to ${address}${subject ? ` "${subject}"` : ''}`,
    })
    .toBeGreaterThan(after)
  return found.at(-1)!
}

/** The site's link in an e-mail's text (the confirm page's, with its token). */
export function confirmLinkIn(email: Pick<ReceivedEmail, 'text'>): string {
  const link = /http:\/\/localhost:\d+(?:\/[a-z]{2}(?:-[a-z]{2})?)?\/waitlist\/confirm#token=[A-Za-z0-9_-]{43}/.exec(email.text)?.[0]
  if (!link) throw new Error(`no link in ${email.text}`)
  return link
}
