import { execFile } from 'node:child_process'
import { promisify } from 'node:util'
import type { Browser, Page } from '@playwright/test'
import { expect } from './fixtures'
import { confirmLinkIn, emailTo } from './inbox'
import { copy } from './seed-copy'
import { confirmByPress, joinWaitlist } from './waitlist-form'
import { supabaseUrl, waitingLine } from './waitlist-rows'

// What the admission specs share: people who sign up and confirm as people do, and the owner's
// commands run against the suite's database as the owner runs them.

const exec = promisify(execFile)
const { email: words } = copy.waitlist

/** The owner's environment: the suite's database, its local service key (the owner commands' default). */
export const ownerEnv = { ...process.env, NEXT_PUBLIC_SUPABASE_URL: supabaseUrl, SUPABASE_SERVICE_ROLE_KEY: '' }

/** `npm run waitlist:invite -- …` against the suite's database. */
export async function invite(...args: string[]): Promise<string> {
  const { stdout } = await exec('tsx', ['tools/owner/waitlist-invite.ts', ...args], { env: ownerEnv })
  return stdout
}

/** Invites whoever earlier specs left waiting, so a spec's own people are the line. */
export async function emptyTheLine(): Promise<void> {
  const ahead = (await waitingLine()).length
  if (ahead > 0) await invite('--next', String(ahead))
  expect(await waitingLine()).toEqual([])
}

/** A person of this run, at an address no other run has. */
export function admittedPerson(name: string, stamp: string) {
  return { name: `${name} Admitted`, email: `${name.toLowerCase()}.${stamp}@admission.example` }
}

/** Signs up through the form (at `path`), opens the confirmation e-mail's link and presses Confirm; returns the link. */
export async function signUpAndConfirm(page: Page, who: { name: string; email: string; updates?: boolean }, path = '/waitlist'): Promise<string> {
  await joinWaitlist(page, who, path)
  const link = confirmLinkIn(await emailTo(who.email, { subject: words.subject }))
  await confirmByPress(page, link)
  return link
}

/** The invitation e-mail to `address`, and the token its app link carries. */
export async function invitationTo(address: string) {
  const mail = await emailTo(address, { subject: words.invitationSubject })
  const url = /https:\/\/app\.example\.com\/\?invitation=[A-Za-z0-9_-]{43}/.exec(mail.text)?.[0]
  expect(url, `the app link in the invitation to ${address}`).toBeDefined()
  return { mail, token: new URL(url!).searchParams.get('invitation')! }
}

/** `work` in a browser context of its own: another person, with no cookies or storage of ours. */
export async function withOwnBrowser<T>(browser: Browser, work: (page: Page) => Promise<T>): Promise<T> {
  const context = await browser.newContext()
  try {
    return await work(await context.newPage())
  } finally {
    await context.close()
  }
}
