/**
 * Questions at sign-up in the database (supabase/schemas/15_questions.sql), attacked as a visitor
 * with the public key would, on PGlite and on a real PostgreSQL server: only answers to the
 * questions published now, with only their options, are stored; a required question unanswered,
 * an unknown option, a value of the wrong shape, an oversized or control-laden short answer refuse
 * the sign-up whole; an unknown key is dropped; the set is replaced whole by the service role only;
 * a question published after a sign-up leaves it as it was; a question changed later leaves the
 * stored answer readable; the answers are part of the person's own data and go with erasure; and the
 * sync's rules (sanity/questions/rules.ts) and the database's agree on what a publishable set is.
 */
import { beforeEach, describe, expect, it } from 'vitest'
import { emptyList, onEachDatabase, runAs, waitlistDbTargets, type WaitlistDb } from '../helpers/waitlist-db'
import { waitlistPeople } from '../helpers/waitlist-people'
import { BLANK_TEXTS } from '../helpers/blank-text'
import { publishableQuestions, type PublishedQuestion } from '@/sanity/questions/rules'

let db: WaitlistDb

const targets = await waitlistDbTargets('questions-db')

const QUESTIONS: PublishedQuestion[] = [
  {
    key: 'role',
    kind: 'one',
    required: true,
    labels: { en: 'What is your role?', de: 'Was ist Ihre Rolle?' },
    options: [
      { key: 'product-manager', labels: { en: 'Product manager', de: 'Produktmanagerin' } },
      { key: 'founder', labels: { en: 'Founder', de: 'Gründerin' } },
      { key: 'researcher', labels: { en: 'Researcher', de: 'Forscherin' } },
    ],
  },
  {
    key: 'tools',
    kind: 'many',
    required: false,
    labels: { en: 'Which tools do you use?' },
    options: [
      { key: 'slack', labels: { en: 'Slack' } },
      { key: 'notion', labels: { en: 'Notion' } },
      { key: 'jira', labels: { en: 'Jira' } },
    ],
  },
  { key: 'goal', kind: 'text', required: false, labels: { en: 'What would you ask your users?' }, options: [] },
]

onEachDatabase(
  targets,
  (opened) => (db = opened),
  () => {
    const { address, api, mailToken, confirm, exportMe, deleteMe } = waitlistPeople(() => db, 'questions.test')

    const replace = (questions: unknown, role = 'service_role') =>
      runAs<{ value: number }>(db, role, 'select public.waitlist_replace_questions($1::jsonb) as value', [JSON.stringify(questions)], {
        keep: true,
        request: api(),
      })
    const keys = async () => (await db.query<{ key: string }>('select key from private.waitlist_questions order by position')).rows.map((row) => row.key)

    /** A sign-up through the public key sending `answers` as the raw JSON text given. */
    async function signUpWith(answersJson: string | null, language = 'en') {
      const email = address()
      const outcome = await runAs(
        db,
        'anon',
        'insert into public.waitlist (name, email, project, language, answers) values ($1, $2, $3, $4, $5::jsonb)',
        ['Ada', email, '', language, answersJson],
        { keep: true, request: api() },
      )
      const stored = (await db.query<{ answers: unknown }>('select answers from public.waitlist where email = $1', [email])).rows[0]?.answers
      return { email, outcome, stored }
    }
    const answers = (value: unknown) => JSON.stringify(value)

    beforeEach(async () => {
      await emptyList(db, 'private.waitlist_questions')
      expect(await replace(QUESTIONS)).toEqual({ ok: true, rows: [{ value: 3 }] })
    })

    it('stores the answers with the question and options as the person saw them, in their language', async () => {
      const english = await signUpWith(answers({ role: 'product-manager', tools: ['jira', 'slack', 'slack'], goal: '  Why do you churn?  ' }))
      expect(english.outcome).toEqual({ ok: true, rows: [] })
      expect(english.stored).toEqual({
        role: { question: 'What is your role?', kind: 'one', options: ['product-manager'], labels: ['Product manager'] },
        // Each option once, in the question's order.
        tools: { question: 'Which tools do you use?', kind: 'many', options: ['slack', 'jira'], labels: ['Slack', 'Jira'] },
        goal: { question: 'What would you ask your users?', kind: 'text', text: 'Why do you churn?' },
      })
      const german = await signUpWith(answers({ role: 'founder', tools: 'notion' }), 'de')
      expect(german.stored).toEqual({
        role: { question: 'Was ist Ihre Rolle?', kind: 'one', options: ['founder'], labels: ['Gründerin'] },
        // No German words for this question: the English ones.
        tools: { question: 'Which tools do you use?', kind: 'many', options: ['notion'], labels: ['Notion'] },
      })
    })

    it('drops keys no published question has, whatever they hold', async () => {
      const { outcome, stored } = await signUpWith(
        answers({ role: 'founder', admin: true, ROLE: 'founder', 'role ': 'x', __proto__: 'x', '<script>': '<b>', big: 'x'.repeat(10_000) }),
      )
      expect(outcome).toEqual({ ok: true, rows: [] })
      expect(Object.keys(stored as object)).toEqual(['role'])
    })

    it('refuses a required question left unanswered, in every spelling of nothing', async () => {
      for (const given of [null, '{}', answers({ role: null }), answers({ role: [] }), answers({ tools: ['slack'] })]) {
        const { outcome, stored } = await signUpWith(given)
        expect(outcome, String(given)).toMatchObject({ ok: false, code: 'WLA01', message: 'an answer to "role" is required' })
        expect(stored, String(given)).toBeUndefined()
      }
    })

    it('refuses forged options and values of the wrong shape, storing nothing', async () => {
      const forged = [
        { role: 'ceo' },
        { role: 'Product manager' },
        { role: 'PRODUCT-MANAGER' },
        { role: 'product-manager\u200b' },
        { role: ['product-manager', 'founder'] },
        { role: ['product-manager'] },
        { role: 1 },
        { role: { key: 'founder' } },
        { role: 'founder', tools: ['slack', 'teams'] },
        { role: 'founder', tools: [true] },
        { role: 'founder', tools: { slack: true } },
        { role: 'founder', goal: ['a'] },
        { role: 'founder', goal: 42 },
      ]
      for (const given of forged) {
        const { outcome, stored } = await signUpWith(answers(given))
        expect(outcome, JSON.stringify(given)).toMatchObject({ ok: false, code: 'WLA02' })
        expect(stored).toBeUndefined()
      }
      for (const notAnObject of [answers(['role', 'founder']), answers('founder'), '42', 'true']) {
        const { outcome } = await signUpWith(notAnObject)
        expect(outcome, notAnObject).toMatchObject({ ok: false, code: 'WLA02' })
      }
    })

    it('refuses a short answer over 200 characters or with control and direction characters', async () => {
      const ok = await signUpWith(answers({ role: 'founder', goal: '🙂'.repeat(200) }))
      expect(ok.outcome).toEqual({ ok: true, rows: [] })
      const long = await signUpWith(answers({ role: 'founder', goal: 'x'.repeat(201) }))
      expect(long.outcome).toMatchObject({ ok: false, code: 'WLA03' })
      for (const text of ['line\nbreak', 'tab\tbed', 'gpj.\u202eexe', 'zero\u200bwidth', 'bell\u0007']) {
        const { outcome } = await signUpWith(answers({ role: 'founder', goal: text }))
        expect(outcome, JSON.stringify(text)).toMatchObject({ ok: false, code: 'WLA04' })
      }
    })

    it('takes a short answer of invisible characters alone as no answer: refused when required, else not stored', async () => {
      for (const [label, text] of BLANK_TEXTS) {
        const optional = await signUpWith(answers({ role: 'founder', goal: text }))
        expect(optional.outcome, label).toEqual({ ok: true, rows: [] })
        expect(optional.stored, label).toEqual({ role: { question: 'What is your role?', kind: 'one', options: ['founder'], labels: ['Founder'] } })
      }
      expect(await replace([QUESTIONS[0], { ...QUESTIONS[2], required: true }])).toEqual({ ok: true, rows: [{ value: 2 }] })
      for (const [label, text] of BLANK_TEXTS) {
        const required = await signUpWith(answers({ role: 'founder', goal: text }))
        expect(required.outcome, label).toMatchObject({ ok: false, code: 'WLA01', message: 'an answer to "goal" is required' })
        expect(required.stored, label).toBeUndefined()
      }
    })

    it('a question published after a sign-up leaves that entry as it was; one changed later leaves the answer readable', async () => {
      expect(await replace([])).toEqual({ ok: true, rows: [{ value: 0 }] })
      const before = await signUpWith(answers({ role: 'founder' }))
      expect(before.outcome).toEqual({ ok: true, rows: [] })
      expect(before.stored).toEqual({})
      expect(await replace(QUESTIONS)).toEqual({ ok: true, rows: [{ value: 3 }] })
      const after = await signUpWith(answers({ role: 'founder' }))
      expect(await replace([{ ...QUESTIONS[1], key: 'stack' }])).toEqual({ ok: true, rows: [{ value: 1 }] })
      const rows = await db.query<{ email: string; answers: unknown }>('select email, answers from public.waitlist order by created_at, email')
      expect(rows.rows.find((row) => row.email === before.email)?.answers).toEqual({})
      expect(rows.rows.find((row) => row.email === after.email)?.answers).toEqual({
        role: { question: 'What is your role?', kind: 'one', options: ['founder'], labels: ['Founder'] },
      })
    })

    it('only the service role replaces the set; a malformed set is refused whole and the last kept', async () => {
      for (const role of ['anon', 'authenticated']) {
        expect(await replace([], role)).toMatchObject({ ok: false, code: '42501' })
        const read = await runAs(db, role, 'select * from public.waitlist_questions()', [], { keep: true, request: api() })
        expect(read).toMatchObject({ ok: false, code: '42501' })
        const table = await runAs(db, role, 'select * from private.waitlist_questions', [], { keep: true, request: api() })
        expect(table).toMatchObject({ ok: false, code: '42501' })
      }
      const base = QUESTIONS[0]!
      const malformed: unknown[] = [
        null,
        { ...base },
        Array.from({ length: 6 }, (_, i) => ({ ...base, key: `q${i}` })),
        [base, base],
        [{ ...base, key: 'Role' }],
        [{ ...base, kind: 'dropdown' }],
        [{ ...base, required: 'yes' }],
        [{ ...base, labels: { de: 'Rolle' } }],
        [{ ...base, labels: { en: ' ' } }],
        [{ ...base, labels: { en: 'x'.repeat(161) } }],
        [{ ...base, labels: { en: 'Role', 'EN-us': 'Role' } }],
        [{ ...base, options: [base.options[0]] }],
        [{ ...base, options: Array.from({ length: 13 }, (_, i) => ({ key: `o${i}`, labels: { en: `O${i}` } })) }],
        [{ ...base, options: [base.options[0], base.options[0]] }],
        [{ ...base, options: [...base.options, { key: '-x', labels: { en: 'X' } }] }],
        [{ ...QUESTIONS[2], options: base.options }],
      ]
      for (const questions of malformed) {
        expect(await replace(questions), JSON.stringify(questions)).toMatchObject({ ok: false, code: '22023' })
        // What the sync would send for the same input is never one of these: the two agree.
        if (Array.isArray(questions) && questions.length <= 5) {
          const { questions: kept } = publishableQuestions(questions.map(toDraft))
          expect(await replace(kept), JSON.stringify(kept)).toMatchObject({ ok: true })
          expect(await replace(QUESTIONS)).toMatchObject({ ok: true })
        }
      }
      expect(await keys()).toEqual(['role', 'tools', 'goal'])
    })

    it('the answers are in the person’s own data and the webhook’s, and erasure takes them', async () => {
      const { email } = await signUpWith(answers({ role: 'researcher', goal: 'Onboarding' }))
      const token = await mailToken(email)
      expect(await confirm(token)).toBe('confirmed')
      const own = (await exportMe(token)) as { entry: { answers: unknown } }
      expect(own.entry.answers).toEqual({
        role: { question: 'What is your role?', kind: 'one', options: ['researcher'], labels: ['Researcher'] },
        goal: { question: 'What would you ask your users?', kind: 'text', text: 'Onboarding' },
      })
      // The founders' webhook (entry.confirmed) and Slack read them when they are sent, like the name.
      const claimed = await db.query<{ entry: { answers: unknown } }>(
        'select private.waitlist_outbox_entry(w) as entry from public.waitlist w where email = $1',
        [email],
      )
      expect(claimed.rows[0]?.entry.answers).toEqual(own.entry.answers)
      expect(await deleteMe(token)).toBe(true)
      const left = await db.query(`select 1 from public.waitlist where answers::text like '%Onboarding%'`)
      expect(left.rows).toEqual([])
    })

    describe('invitations by answers', () => {
      async function service<T>(sql: string, params: unknown[] = []): Promise<T> {
        const result = await runAs<{ value: T }>(db, 'service_role', sql, params, { keep: true, request: { headers: {} } })
        if (!result.ok) throw new Error(`${result.code}: ${result.message}`)
        return result.rows[0]!.value
      }
      type Invited = { place: number; email: string }
      const invite = (n: number, segment: unknown, dryRun = false) =>
        service<Invited[]>('select public.waitlist_invite_next($1, $2, $3::jsonb) as value', [n, dryRun, segment === null ? null : JSON.stringify(segment)])

      /** Confirmed one after the other, with these answers: the line in this order. */
      async function line(answerSets: Record<string, unknown>[]): Promise<string[]> {
        const emails: string[] = []
        for (const given of answerSets) {
          const { email, outcome } = await signUpWith(answers(given))
          expect(outcome).toEqual({ ok: true, rows: [] })
          expect(await confirm(await mailToken(email))).toBe('confirmed')
          emails.push(email)
        }
        return emails
      }

      it('previews and invites the next of a segment in place order, each with their place in the whole line', async () => {
        const pm = { role: 'product-manager' }
        const emails = await line([{ role: 'founder' }, pm, { role: 'researcher' }, { ...pm, tools: ['slack'] }, pm, { role: 'founder', tools: ['slack'] }])
        const segment = { role: ['product-manager'] }
        expect(await invite(2, segment, true)).toMatchObject([
          { place: 2, email: emails[1] },
          { place: 4, email: emails[3] },
        ])
        // Either option of one question; both questions.
        expect((await invite(10, { role: ['product-manager', 'founder'], tools: ['slack'] }, true)).map((p) => p.email)).toEqual([emails[3], emails[5]])
        const invited = await invite(2, segment)
        expect(invited.map((person) => person.email)).toEqual([emails[1], emails[3]])
        const statuses = await db.query<{ email: string; status: string }>('select email, status from public.waitlist order by email')
        expect(
          statuses.rows
            .filter((row) => row.status === 'invited')
            .map((row) => row.email)
            .sort(),
        ).toEqual([emails[1]!, emails[3]!].sort())
        // The next of the segment now; nobody at all for a segment nobody is in.
        expect(await invite(5, segment, true)).toMatchObject([{ place: 3, email: emails[4] }])
        expect(await invite(5, { tools: ['jira'] }, true)).toEqual([])
        // The whole line, as before.
        expect((await invite(10, null, true)).map((person) => person.email)).toEqual([emails[0], emails[2], emails[4], emails[5]])
      })

      it('counts how the line answers: each option, short answers, and how many are in line', async () => {
        await line([
          { role: 'founder', tools: ['slack', 'jira'] },
          { role: 'founder', goal: 'Churn' },
          { role: 'product-manager', tools: ['slack'] },
        ])
        await signUpWith(answers({ role: 'researcher' })) // pending: not in line
        await invite(1, { role: ['product-manager'] }) // invited: out of line
        const counts = await db.query(`select question, option, entries from public.waitlist_answer_counts()`)
        expect(counts.rows).toEqual([
          { question: 'goal', option: null, entries: 1 },
          { question: 'role', option: 'founder', entries: 2 },
          { question: 'tools', option: 'jira', entries: 1 },
          { question: 'tools', option: 'slack', entries: 1 },
          { question: null, option: null, entries: 2 },
        ])
        for (const role of ['anon', 'authenticated']) {
          const read = await runAs(db, role, 'select * from public.waitlist_answer_counts()', [], { keep: true, request: api() })
          expect(read).toMatchObject({ ok: false, code: '42501' })
          const head = await runAs(db, role, `select public.waitlist_line_head(5, '{"role":["founder"]}')`, [], { keep: true, request: api() })
          expect(head).toMatchObject({ ok: false, code: '42501' })
        }
      })

      it('refuses a malformed segment whole, inviting nobody', async () => {
        await line([{ role: 'founder' }])
        for (const segment of [
          {},
          [],
          'role=founder',
          { role: 'founder' },
          { role: [] },
          { role: [1] },
          { Role: ['founder'] },
          { role: ["founder' or true"] },
        ]) {
          const result = await runAs(db, 'service_role', 'select public.waitlist_invite_next(5, false, $1::jsonb)', [JSON.stringify(segment)], {
            keep: true,
            request: { headers: {} },
          })
          expect(result, JSON.stringify(segment)).toMatchObject({ ok: false, code: '22023' })
        }
        expect((await db.query(`select count(*)::int as n from public.waitlist where status = 'invited'`)).rows[0]).toEqual({ n: 0 })
      })

      it('runs at once never invite a person twice, within a segment or beside the whole line', async () => {
        const emails = await line(Array.from({ length: 12 }, (_, i) => ({ role: i % 2 ? 'founder' : 'product-manager' })))
        const pms = emails.filter((_, i) => i % 2 === 0)
        const runs = await Promise.all([
          invite(3, { role: ['product-manager'] }),
          invite(3, { role: ['product-manager'] }),
          invite(3, null),
          invite(2, { role: ['founder'] }),
        ])
        const invited = runs.flat().map((person) => person.email)
        // However the runs fell in turn, each took people nobody else took, each of its own segment.
        expect(new Set(invited).size).toBe(invited.length)
        expect(invited.length).toBeGreaterThanOrEqual(9)
        for (const run of runs.slice(0, 2)) for (const person of run) expect(pms).toContain(person.email)
        for (const person of runs[3]!) expect(pms).not.toContain(person.email)
        expect((await db.query(`select count(*)::int as n from private.waitlist_invitations`)).rows[0]).toEqual({ n: invited.length })
      })
    })

    it('the public key cannot read anyone’s answers', async () => {
      await signUpWith(answers({ role: 'founder' }))
      const read = await runAs(db, 'anon', 'select answers from public.waitlist', [], { keep: true, request: api() })
      expect(read).toMatchObject({ ok: false, code: '42501' })
    })
  },
)

/** The database's shape back into the Studio's, for the sync's rules to judge. */
function toDraft(question: unknown) {
  const q = (question ?? {}) as Partial<PublishedQuestion> & { labels?: unknown; options?: unknown }
  const texts = (labels: unknown) =>
    typeof labels === 'object' && labels !== null ? Object.entries(labels).map(([language, text]) => ({ language, text: String(text) })) : undefined
  return {
    key: q.key,
    kind: q.kind,
    required: q.required,
    label: texts(q.labels),
    options: Array.isArray(q.options)
      ? q.options.map((option: { key?: string; labels?: unknown }) => ({ key: option?.key, label: texts(option?.labels) }))
      : undefined,
  }
}
