import { execFile, spawn } from 'node:child_process'
import { promisify } from 'node:util'
import type { Browser, Page } from '@playwright/test'
import { expect } from './fixtures'
import { confirmLinkIn, emailTo } from './inbox'
import { copy } from './seed-copy'
import { confirmByPress, joinWaitlist } from './waitlist-form'
import { supabaseUrl, waitingLine } from './waitlist-rows'
import { E2E } from '../tools/test/e2e-env'

// What the admission specs share: people who sign up and confirm as people do, and the owner's
// commands run against the suite's database as the owner runs them.

const exec = promisify(execFile)
const { email: words } = copy.waitlist

/**
 * The owner's environment: the suite's database, its local service key (the owner commands'
 * default), and the content the suite's site shows (the console reads the published campaign versions).
 */
export const ownerEnv = { ...process.env, NEXT_PUBLIC_SUPABASE_URL: supabaseUrl, SUPABASE_SERVICE_ROLE_KEY: '', CONTENT_SEED_PATH: E2E.seedPath }

/** `npm run waitlist:console` against the suite's database: the address it printed (its token in it), and how to stop it. */
export async function startOwnerConsole(): Promise<{ url: URL; stop: () => void }> {
  const running = spawn('tsx', ['tools/owner/console/main.ts', '--port', '0'], { env: ownerEnv, stdio: ['ignore', 'pipe', 'inherit'] })
  const url = await new Promise<URL>((resolve, reject) => {
    let out = ''
    running.stdout!.on('data', (chunk: Buffer) => {
      out += chunk.toString()
      const address = /Founders' console: (http:\/\/127\.0\.0\.1:\d+\/\?token=[A-Za-z0-9_-]+)/.exec(out)?.[1]
      if (address) resolve(new URL(address))
    })
    running.once('exit', (code) => reject(new Error(`the console stopped (${code}) before printing its address: ${out}`)))
  })
  return { url, stop: () => running.kill('SIGTERM') }
}

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
