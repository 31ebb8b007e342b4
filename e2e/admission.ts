import type { Browser, Page } from '@playwright/test'
import { expect } from './fixtures'
import { confirmLinkIn, emailTo } from './inbox'
import { copy } from './seed-copy'
import { confirmByPress, joinWaitlist } from './waitlist-form'
import { supabaseUrl, waitingLine } from './waitlist-rows'
import { E2E } from '../tools/test/e2e-env'
import { startConsole } from '../tools/owner/console/server'
import { formatInvitations, inviteFromLine, ownerClient } from '../tools/owner/owner'

// What the admission specs share: people who sign up and confirm as people do, and the owner's
// commands' own code run in this process against the suite's database (each command's spawn, its
// arguments and output, is tested once: tests/integration/waitlist-console.test.ts and
// waitlist-invite-command.test.ts).
const { email: words } = copy.waitlist

/**
 * The owner's environment: the suite's database, its local service key (the owner commands'
 * default), and the content the suite's site shows (the console reads the published campaign versions).
 */
export const ownerEnv = { ...process.env, NEXT_PUBLIC_SUPABASE_URL: supabaseUrl, SUPABASE_SERVICE_ROLE_KEY: '', CONTENT_SEED_PATH: E2E.seedPath }

/** The founders' console (`npm run waitlist:console`'s server) against the suite's database: its address (its token in it), and how to stop it. */
export async function startOwnerConsole(): Promise<{ url: URL; stop: () => void }> {
  const running = await startConsole({ port: 0, env: ownerEnv, log: () => {} })
  return { url: new URL(running.url), stop: () => void running.close() }
}

/** What `npm run waitlist:invite -- --next N [--dry-run]` prints, against the suite's database. */
export async function invite(next: number, { dryRun = false } = {}): Promise<string> {
  return formatInvitations(await inviteFromLine(ownerClient(ownerEnv).client, { next, segment: null }, dryRun), dryRun)
}

/** Invites whoever earlier specs left waiting, so a spec's own people are the line. */
export async function emptyTheLine(): Promise<void> {
  const ahead = (await waitingLine()).length
  if (ahead > 0) await invite(ahead)
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
