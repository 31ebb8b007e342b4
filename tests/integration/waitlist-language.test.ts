/**
 * The waitlist in the person's language (supabase/migrations/*_waitlist_language.sql), on PGlite
 * and on a real PostgreSQL server, with the real dispatcher (its e-mails captured): the sign-up
 * records its language (only a code of the site's shape), every message knows it, every e-mail is
 * written in it and leads to pages in it, the erasure e-mail too after the entry is gone, the app is
 * told it when an invitation is redeemed, and a post goes to its own language's readers only.
 */
import { beforeEach, describe, expect, it } from 'vitest'
import { dispatchOutbox, type DispatchOptions } from '@/components/waitlist/outbox/dispatch'
import { seedEmailCopy } from '../../tools/content/seed-email-copy'
import { capturingEmail, databaseStore } from '../helpers/outbox-store'
import { onEachDatabase, resetForMailTests, runAs, waitlistDbTargets, type WaitlistDb } from '../helpers/waitlist-db'
import { waitlistPeople } from '../helpers/waitlist-people'

let db: WaitlistDb
const targets = await waitlistDbTargets('waitlist-language')
const SITE = 'https://heardly.example'
const COPY = { en: seedEmailCopy('en'), de: seedEmailCopy('de') }

onEachDatabase(
  targets,
  (opened) => (db = opened),
  () => {
    let mail = capturingEmail()

    beforeEach(async () => {
      mail = capturingEmail()
      await resetForMailTests(db)
    })

    const { address, api, mailToken, confirm, deleteMe } = waitlistPeople(() => db, 'language.test')
    const dispatch = (overrides: Partial<DispatchOptions> = {}) =>
      dispatchOutbox({
        store: databaseStore(() => db),
        email: mail.channel,
        slack: null,
        slackIncludeEmail: false,
        // What the site does: the language's words, English's where it has none.
        copy: async (language) => (language === 'de' ? COPY.de : COPY.en),
        appUrl: async () => 'https://app.example/',
        siteUrl: SITE,
        ...overrides,
      })
    const signUp = (email: string, language?: string, updates = false) =>
      runAs(
        db,
        'anon',
        `insert into public.waitlist (name, email, project, updates${language === undefined ? '' : ', language'}) values ('Ada', $1, 'Acme', $2${language === undefined ? '' : ', $3'})`,
        [email, updates, ...(language === undefined ? [] : [language])],
        {
          keep: true,
          request: api(),
        },
      )
    const languageOf = async (email: string) =>
      (await db.query<{ language: string }>('select language from public.waitlist where email = $1', [email])).rows[0]?.language
    const messageLanguages = async () =>
      (
        await db.query<{ kind: string; language: string }>(
          `select kind, payload ->> 'language' as language from public.waitlist_outbox order by created_at, kind`,
        )
      ).rows

    describe('the sign-up’s language', () => {
      it('is English unless the sign-up says otherwise, and the public key may say so', async () => {
        const [english, german] = [address(), address()]
        expect(await signUp(english)).toEqual({ ok: true, rows: [] })
        expect(await signUp(german, 'de')).toEqual({ ok: true, rows: [] })
        expect(await languageOf(english)).toBe('en')
        expect(await languageOf(german)).toBe('de')
      })

      it.each(['DE', 'deu', 'german', 'de-DE', 'de_de', '', ' de', 'de\u200b', "de'); drop table public.waitlist; --", 'dé'])(
        'refuses "%s" as a language, and stores nothing',
        async (language) => {
          const email = address()
          expect(await signUp(email, language)).toMatchObject({ ok: false, code: '23514' })
          expect(await languageOf(email)).toBeUndefined()
        },
      )

      it.each(['fr', 'xx-yy', 'en-us', 'de-at'])(
        'refuses "%s", a code the site does not publish: its e-mails would link to pages that answer 404',
        async (language) => {
          const email = address()
          expect(await signUp(email, language)).toMatchObject({ ok: false, code: '23514', constraint: 'waitlist_language_published' })
          expect(await languageOf(email)).toBeUndefined()
        },
      )

      it('takes a language once the site publishes it, and keeps English whatever the publish says', async () => {
        const replace = (codes: string[]) =>
          runAs<{ value: number }>(db, 'service_role', 'select public.waitlist_replace_languages($1) as value', [codes], { keep: true, request: api() })
        expect(await replace(['de', 'fr'])).toEqual({ ok: true, rows: [{ value: 3 }] })
        const email = address()
        expect(await signUp(email, 'fr')).toEqual({ ok: true, rows: [] })
        expect(await replace([])).toEqual({ ok: true, rows: [{ value: 1 }] })
        expect(await signUp(address(), 'de')).toMatchObject({ ok: false, code: '23514' })
        expect(await signUp(address(), 'en')).toEqual({ ok: true, rows: [] })
        expect(await languageOf(email)).toBe('fr')
        expect(await replace(['de', 'x; drop table'])).toMatchObject({ ok: false, code: '22023' })
        // The public key may neither change the set nor read it.
        for (const call of ["select public.waitlist_replace_languages(array['fr'])", 'select public.waitlist_languages()'])
          expect(await runAs(db, 'anon', call, [], { request: api() })).toMatchObject({ ok: false, code: '42501' })
        expect(await replace(['de'])).toEqual({ ok: true, rows: [{ value: 2 }] })
      })
    })

    describe('every e-mail in the person’s language', () => {
      it('the confirmation: German words, the German confirm page, the German leave page, <html lang="de">', async () => {
        const [english, german] = [address(), address()]
        await signUp(english)
        await signUp(german, 'de')
        expect(await messageLanguages()).toEqual(
          expect.arrayContaining([
            { kind: 'confirmation_email', language: 'de' },
            { kind: 'confirmation_email', language: 'en' },
          ]),
        )
        await dispatch()
        const to = (email: string) => mail.sent.find((message) => message.to.address === email)!
        const [toEnglish, toGerman] = [to(english), to(german)]
        expect(toGerman.subject).toBe(COPY.de.subject)
        expect(toGerman.subject).not.toBe(COPY.en.subject)
        expect(toGerman.text).toContain(`${SITE}/de/waitlist/confirm#token=`)
        expect(toGerman.text).toContain(`${SITE}/de/waitlist/unsubscribe#token=`)
        expect(toGerman.html).toMatch(/<html[^>]* lang="de"/)
        expect(new URL(toGerman.unsubscribeUrl!).searchParams.get('lang')).toBe('de')
        expect(toEnglish.subject).toBe(COPY.en.subject)
        expect(toEnglish.text).toContain(`${SITE}/waitlist/confirm#token=`)
        expect(toEnglish.html).toMatch(/<html[^>]* lang="en"/)
        expect(new URL(toEnglish.unsubscribeUrl!).searchParams.has('lang')).toBe(false)
      })

      it('the erasure e-mail, though the entry is gone when it is sent', async () => {
        const email = address()
        await signUp(email, 'de')
        const token = await mailToken(email)
        expect(await confirm(token)).toBe('confirmed')
        await dispatch()
        mail = capturingEmail()
        expect(await deleteMe(token)).toBe(true)
        await dispatch()
        const erasure = mail.sent.find((message) => message.to.address === email)!
        expect(erasure.subject).toBe(COPY.de.erasureSubject)
        expect(erasure.html).toMatch(/<html[^>]* lang="de"/)
      })

      it('the invitation, and the app told the language when it is redeemed', async () => {
        const email = address()
        await signUp(email, 'de')
        expect(await confirm(await mailToken(email))).toBe('confirmed')
        const invited = await runAs(db, 'service_role', 'select public.waitlist_invite_next(1, false)', [], { keep: true, request: { headers: {} } })
        expect(invited.ok).toBe(true)
        await dispatch()
        const invitation = mail.sent.find((message) => message.to.address === email && message.subject === COPY.de.invitationSubject)!
        expect(invitation.html).toMatch(/<html[^>]* lang="de"/)
        const token = /\?invitation=([A-Za-z0-9_-]{43})/.exec(invitation.text)![1]!
        const redeemed = await runAs<{ value: Record<string, unknown> }>(db, 'service_role', 'select public.waitlist_redeem_invitation($1) as value', [token], {
          keep: true,
          request: { headers: {} },
        })
        expect(redeemed.ok && redeemed.rows[0]!.value).toMatchObject({ email, language: 'de' })
      })

      it('a language the site stopped publishing is written in English, its links to English pages', async () => {
        const publish = (codes: string[]) => runAs(db, 'service_role', 'select public.waitlist_replace_languages($1)', [codes], { keep: true, request: api() })
        await publish(['de', 'fr'])
        const email = address()
        expect(await signUp(email, 'fr')).toEqual({ ok: true, rows: [] })
        await publish(['de'])
        await dispatch({ languages: async () => ['en', 'de'] })
        const sent = mail.sent.find((message) => message.to.address === email)!
        expect(sent.subject).toBe(COPY.en.subject)
        expect(sent.text).toContain(`${SITE}/waitlist/confirm#token=`)
        expect(sent.text).not.toContain('/fr/')
        expect(sent.html).toMatch(/<html[^>]* lang="en"/)
      })
    })

    describe('a post to its language’s readers', () => {
      const service = async <T>(sql: string, params: unknown[]): Promise<T> => {
        const result = await runAs<{ value: T }>(db, 'service_role', sql, params, { keep: true, request: { headers: {} } })
        if (!result.ok) throw new Error(`${result.code}: ${result.message}`)
        return result.rows[0]!.value
      }
      const broadcast = (postId: string, path: string) =>
        service<{ broadcast: boolean; recipients: number }>('select public.waitlist_broadcast_post($1, $2, $3, $4) as value', [
          postId,
          'Hello',
          'A post.',
          path,
        ])
      async function reader(language: string) {
        const email = address()
        expect(await signUp(email, language, true)).toEqual({ ok: true, rows: [] })
        expect(await confirm(await mailToken(email))).toBe('confirmed')
        return email
      }

      it('the English post reaches the English readers, its German translation the German ones, each once', async () => {
        const [en1, en2, de1] = [await reader('en'), await reader('en'), await reader('de')]
        expect(await broadcast('post-hello', '/blog/hello')).toEqual({ broadcast: true, recipients: 2 })
        expect(await broadcast('post-hello-de', '/de/blog/hallo')).toEqual({ broadcast: true, recipients: 1 })
        expect(await broadcast('post-hello-de', '/de/blog/hallo')).toEqual({ broadcast: false, recipients: 0 })
        await db.exec(`delete from public.waitlist_outbox where kind <> 'update_email'`)
        await dispatch()
        const updates = (email: string) => mail.sent.filter((message) => message.to.address === email)
        expect(updates(en1).map((message) => message.text)).toEqual([expect.stringContaining(`${SITE}/blog/hello`)])
        expect(updates(en2)).toHaveLength(1)
        expect(updates(de1).map((message) => message.text)).toEqual([expect.stringContaining(`${SITE}/de/blog/hallo`)])
        expect(updates(de1)[0]!.subject).toBe(COPY.de.updateSubject.replace('{title}', 'Hello'))
      })
    })
  },
)
