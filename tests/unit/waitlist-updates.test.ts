/**
 * Updates by e-mail, the site's side: which published post the webhook e-mails (and that a failure
 * is never silent), the update e-mail's words and links, and the leave page's reading of the token.
 * The database's side is tests/integration/waitlist-updates.test.ts.
 */
import { describe, expect, it, vi } from 'vitest'
import type { WaitlistEmailCopy } from '@/sanity/content/types'
import { renderUpdateEmail } from '@/components/waitlist/outbox/email'
import { mintToken } from '@/components/waitlist/outbox/token'
import { isUpdatesToken, leavePageUrl, UPDATES_TOKEN_PREFIX } from '@/components/waitlist/unsubscribe-path'
import { broadcastOf, broadcastOnPublish, type BroadcastDeps, type PublishedPost } from '@/components/waitlist/updates'
import { seedEmailCopy } from '../../tools/content/seed-email-copy'

const copy = seedEmailCopy()

const post: NonNullable<PublishedPost> = {
  _id: 'post-launch',
  language: 'en',
  title: 'We launched',
  slug: 'we-launched',
  excerpt: 'Heardly is open to everyone on the list.',
  emailToSubscribers: true,
  isSample: false,
}

describe('which post goes by e-mail', () => {
  it('a published post with "E-mail it to subscribers" on that is not a sample, to its page under /blog', () => {
    expect(broadcastOf(post)).toEqual({
      postId: 'post-launch',
      title: 'We launched',
      excerpt: 'Heardly is open to everyone on the list.',
      path: '/blog/we-launched',
    })
    expect(broadcastOf({ ...post, isSample: null })).toMatchObject({ postId: 'post-launch' })
  })

  it('not an unpublished post, one with the box off (or never set), or a sample', () => {
    expect(broadcastOf(null)).toBe('the post is not published')
    expect(broadcastOf({ ...post, emailToSubscribers: false })).toBe('"E-mail it to subscribers" is off')
    expect(broadcastOf({ ...post, emailToSubscribers: null })).toBe('"E-mail it to subscribers" is off')
    expect(broadcastOf({ ...post, isSample: true })).toBe('the post is a sample')
  })
})

describe('the publish webhook’s broadcast', () => {
  const fakes = () => ({
    readPost: vi.fn<BroadcastDeps['readPost']>(async () => post),
    broadcast: vi.fn<NonNullable<BroadcastDeps['broadcast']>>(async () => ({ broadcast: true, recipients: 3 })),
  })
  const deps = (overrides: Partial<BroadcastDeps>): BroadcastDeps => ({ ...fakes(), ...overrides })

  it('reads nothing for a document that is not a post', async () => {
    const d = fakes()
    expect(await broadcastOnPublish({ _type: 'page', _id: 'page-about' }, d)).toEqual({ kind: 'not_a_post' })
    expect(d.readPost).not.toHaveBeenCalled()
  })

  it('reads the published post (never the draft) and e-mails it once; a repeat is said to be one', async () => {
    const d = fakes()
    expect(await broadcastOnPublish({ _type: 'post', _id: 'drafts.post-launch' }, d)).toEqual({ kind: 'sent', postId: 'post-launch', recipients: 3 })
    expect(d.readPost).toHaveBeenCalledWith('post-launch')
    expect(d.broadcast).toHaveBeenCalledWith({ postId: 'post-launch', title: 'We launched', excerpt: post.excerpt, path: '/blog/we-launched' })
    d.broadcast.mockResolvedValueOnce({ broadcast: false, recipients: 0 })
    expect(await broadcastOnPublish({ _type: 'post', _id: 'post-launch' }, d)).toEqual({ kind: 'already_sent', postId: 'post-launch' })
  })

  it('sends nothing for an unpublished or deleted post, a sample, or one with the box off', async () => {
    for (const found of [null, { ...post, isSample: true }, { ...post, emailToSubscribers: false }]) {
      const d = { ...fakes(), readPost: vi.fn(async () => found) }
      expect(await broadcastOnPublish({ _type: 'post', _id: 'post-launch' }, d)).toMatchObject({ kind: 'not_sent' })
      expect(d.broadcast).not.toHaveBeenCalled()
    }
  })

  it('a failure to read or to record the broadcast, or no database, is a failure (the webhook answers 500), never a silent skip', async () => {
    const unreadable = deps({ readPost: vi.fn(async () => Promise.reject(new Error('Sanity is down'))) })
    expect(await broadcastOnPublish({ _type: 'post', _id: 'post-launch' }, unreadable)).toEqual({
      kind: 'failed',
      reason: 'could not read post post-launch: Sanity is down',
    })
    const refused = deps({ broadcast: vi.fn(async () => Promise.reject(new Error('HTTP 503'))) })
    expect(await broadcastOnPublish({ _type: 'post', _id: 'post-launch' }, refused)).toMatchObject({
      kind: 'failed',
      reason: expect.stringContaining('HTTP 503'),
    })
    expect(await broadcastOnPublish({ _type: 'post', _id: 'post-launch' }, deps({ broadcast: null }))).toMatchObject({
      kind: 'failed',
      reason: expect.stringContaining('SUPABASE_SERVICE_ROLE_KEY'),
    })
  })
})

describe('a post that can never be e-mailed as it is', () => {
  const deps = (title: string, answer?: Awaited<ReturnType<NonNullable<BroadcastDeps['broadcast']>>>) => ({
    readPost: vi.fn<BroadcastDeps['readPost']>(async () => ({ ...post, title })),
    broadcast: vi.fn<NonNullable<BroadcastDeps['broadcast']>>(async () => answer ?? { broadcast: true, recipients: 3 }),
  })

  it('a title of spaces (or invisible characters) is refused before the database, not failed: a retry could not help', async () => {
    for (const title of ['   ', '\u200B', '\u202E']) {
      const d = deps(title)
      expect(await broadcastOnPublish({ _type: 'post', _id: 'post-launch' }, d), JSON.stringify(title)).toMatchObject({
        kind: 'refused',
        reason: expect.stringContaining('title'),
      })
      expect(d.broadcast).not.toHaveBeenCalled()
    }
  })

  it('the database’s refusal of the words (an invalid-input error) is refused too; its title goes out as plain text', async () => {
    const d = deps('Invoice \u202Egpj.exe', { refused: 'a title (at most 200 characters) and an excerpt of at most 1000 are needed' })
    expect(await broadcastOnPublish({ _type: 'post', _id: 'post-launch' }, d)).toMatchObject({
      kind: 'refused',
      reason: expect.stringContaining('the database refused'),
    })
    expect(d.broadcast).toHaveBeenCalledWith(expect.objectContaining({ title: 'Invoice gpj.exe' }))
  })
})

describe('the update e-mail', () => {
  const url = 'https://heardly.example/blog/we-launched'
  const leave = leavePageUrl('https://heardly.example', `${UPDATES_TOKEN_PREFIX}${'U'.repeat(43)}`)

  it('renders the copy with the person’s name, the post’s title and summary, a button to the post and the link that stops updates', async () => {
    const email = await renderUpdateEmail({ copy, name: 'Ada', post, url, unsubscribeUrl: leave })
    expect(email.subject).toBe(copy.updateSubject.replace('{title}', 'We launched'))
    expect(email.html).not.toMatch(/<img/i)
    expect(email.html).toContain(`href="${url}"`)
    expect(email.html).toContain(`href="${leave}"`)
    for (const words of [
      copy.updateGreeting.replace('{name}', 'Ada'),
      copy.updateIntro,
      'We launched',
      post.excerpt,
      copy.updateButtonLabel,
      copy.updateFooter,
      copy.updateUnsubscribeLabel,
      url,
      leave,
    ]) {
      expect(email.text, words).toContain(words)
    }
    expect(email.html).toContain(copy.updatePreviewText.replace('{title}', 'We launched'))
    // It offers to stop updates, not to leave the list.
    expect(email.text).not.toContain(copy.unsubscribeLabel)
  })

  it('holds no words but the copy’s, the name, the post’s and the links', async () => {
    const marked: WaitlistEmailCopy = {
      ...copy,
      senderName: 'Qsender',
      updateSubject: 'Qsubject {title}',
      updatePreviewText: 'Qpreview',
      updateGreeting: 'Qhello {name}',
      updateIntro: 'Qintro',
      updateButtonLabel: 'Qbutton',
      linkHint: 'Qhint',
      updateFooter: 'Qfooter',
      updateUnsubscribeLabel: 'Qleave',
    }
    const email = await renderUpdateEmail({ copy: marked, name: 'Zed', post: { title: 'Qtitle', excerpt: 'Qexcerpt' }, url, unsubscribeUrl: leave })
    const rest = email.text
      .replace(/q(sender|hello|intro|title|excerpt|button|hint|footer|leave)|zed/gi, '')
      .split(url)
      .join('')
      .split(leave)
      .join('')
    expect(rest).not.toMatch(/\p{L}/u)
  })
})

describe('an update e-mail’s one-click token', () => {
  it('is 256 random bits after a prefix that only words the leave page; any other token is the waitlist kind', () => {
    const { token } = mintToken(UPDATES_TOKEN_PREFIX)
    expect(token).toMatch(/^updates\.[A-Za-z0-9_-]{43}$/)
    expect(isUpdatesToken(token)).toBe(true)
    expect(isUpdatesToken(mintToken().token)).toBe(false)
    expect(isUpdatesToken(null)).toBe(false)
  })
})
