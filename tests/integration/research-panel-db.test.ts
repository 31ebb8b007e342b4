/**
 * The research panel in the database (supabase/schemas/19_tasks.sql and 20_leaderboard.sql, issue
 * #69), on PGlite and on a real PostgreSQL server: a confirmed person answers a published task once,
 * judged by the sign-up's rules (15_questions.sql), and moves up by its places within the cap; a
 * founder revokes it once; the webhook goes with it; the own page, the own data and the export show
 * it; the leaderboard names only who opted in, under their initials or a nickname that keeps the
 * rule; and the public key forges nothing: not an answer, not a place, not a name.
 */
import { beforeEach, describe, expect, it } from 'vitest'
import { emptyList, onEachDatabase, runAs, waitlistDbTargets, webhooks, type WaitlistDb } from '../helpers/waitlist-db'
import { waitlistPeople } from '../helpers/waitlist-people'
import { TASK_LIMITS, wordCount } from '@/sanity/questions/limits'

let db: WaitlistDb

const targets = await waitlistDbTargets('research-panel-db')

const labels = (en: string, de: string) => ({ en, de })
const TASKS = [
  {
    key: 'learning',
    places: 20,
    titles: labels('How your team learns from users', 'Wie Ihr Team von Nutzern lernt'),
    questions: [
      {
        key: 'method',
        kind: 'one',
        labels: labels('How do you learn from users today?', 'Wie lernen Sie heute von Nutzern?'),
        options: [
          { key: 'interviews', labels: labels('Interviews', 'Interviews') },
          { key: 'surveys', labels: labels('Surveys', 'Umfragen') },
        ],
      },
      { key: 'hardest', kind: 'text', labels: labels('What is hardest about it?', 'Was ist daran am schwersten?'), options: [] },
    ],
  },
  {
    key: 'tools',
    places: 40,
    titles: labels('Your tools', 'Ihre Werkzeuge'),
    questions: [
      {
        key: 'used',
        kind: 'many',
        labels: labels('Which do you use?', 'Welche nutzen Sie?'),
        options: [
          { key: 'slack', labels: labels('Slack', 'Slack') },
          { key: 'notion', labels: labels('Notion', 'Notion') },
          { key: 'other', labels: labels('Other', 'Andere') },
        ],
      },
    ],
  },
]
const GOOD = { method: 'surveys', hardest: 'Finding the people to talk to' }

type Completion = { status: string; places?: number; place?: number | null } | null
type Board = { on_board: boolean; name: string | null; initials: string; hidden: boolean; rank: number | null }

onEachDatabase(
  targets,
  (opened) => (db = opened),
  () => {
    beforeEach(async () => {
      await emptyList(db, 'private.waitlist_tasks', 'private.waitlist_referral_ledger', 'private.waitlist_signup_networks')
      await db.exec(`update private.waitlist_task_settings set places_cap = 50`)
      await db.exec(`update private.waitlist_referral_settings set places_per_referral = 5, hold_velocity = false, hold_same_network = false`)
      await webhooks(db, true)
    })

    const { address, api, call, joined, signUp, mailToken, exportMe, deleteMe } = waitlistPeople(() => db, 'panel.test')

    async function service<T>(sql: string, params: unknown[] = []): Promise<T> {
      const result = await runAs<{ value: T }>(db, 'service_role', sql, params, { keep: true, request: { headers: {} } })
      if (!result.ok) throw new Error(`${result.code}: ${result.message}`)
      return result.rows[0]!.value
    }
    const publish = (tasks: unknown) => service<number>('select public.waitlist_replace_tasks($1::jsonb) as value', [JSON.stringify(tasks)])
    const complete = (token: string, task: string, answers: unknown) =>
      call<Completion>('select public.waitlist_complete_task($1, $2, $3::jsonb) as value', [token, task, JSON.stringify(answers)])
    /** The same call as an attempt: its error code when the database refuses it. */
    const attempt = (token: string, task: string, answers: unknown) =>
      runAs(db, 'anon', 'select public.waitlist_complete_task($1, $2, $3::jsonb) as value', [token, task, JSON.stringify(answers)], {
        keep: true,
        request: api(),
      })
    const revoke = (entry: string, task: string) =>
      service<{ changed: boolean; places: number } | null>('select public.waitlist_revoke_task($1, $2) as value', [entry, task])
    const board = (token: string, choice: string | null = null, nickname: string | null = null) =>
      call<Board>('select public.waitlist_leaderboard_me($1, $2, $3) as value', [token, choice, nickname])
    const leaderboard = () =>
      service<{ rank: number; name: string; referrals: number }[]>('select coalesce(jsonb_agg(l), $$[]$$) as value from public.waitlist_leaderboard(20) l')
    const idOf = async (email: string) => (await db.query<{ id: string }>('select id from public.waitlist where email_key = lower($1)', [email])).rows[0]!.id
    const placesOf = async (email: string) =>
      (await db.query<{ p: number }>('select reward_places as p from public.waitlist where email_key = lower($1)', [email])).rows[0]!.p
    const me = async (token: string) => (await call<Record<string, unknown>>('select public.waitlist_me($1) as value', [token]))!
    const taskWebhooks = async () =>
      (
        await db.query<{ data: Record<string, unknown> }>(
          `select payload -> 'data' as data from public.waitlist_outbox where kind = 'webhook' and payload ->> 'type' = 'task.completed' order by id`,
        )
      ).rows.map((row) => row.data)

    describe('a task', () => {
      it('is answered once, in the person’s language, and moves them up by its places', async () => {
        expect(await publish(TASKS)).toBe(2)
        const ahead = await joined()
        await joined()
        const ada = await joined(address(), null, 'Ada Lovelace')
        await db.query(`update public.waitlist set language = 'de' where email_key = $1`, [ada.email])
        const before = Number((await me(ada.token)).place)
        expect(before).toBe(3)
        // Places are arrivals: 20 places take the third person past both ahead of them.
        const answer = await complete(ada.token, 'learning', GOOD)
        expect(answer).toEqual({ status: 'completed', places: 20, place: 1 })
        expect(await placesOf(ada.email)).toBe(20)
        expect(Number((await me(ahead.token)).place)).toBe(2)
        const stored = (await db.query<{ title: string; answers: unknown }>(`select title, answers from private.waitlist_task_answers`)).rows
        expect(stored).toEqual([
          {
            title: 'Wie Ihr Team von Nutzern lernt',
            answers: {
              method: { question: 'Wie lernen Sie heute von Nutzern?', kind: 'one', options: ['surveys'], labels: ['Umfragen'] },
              hardest: { question: 'Was ist daran am schwersten?', kind: 'text', text: 'Finding the people to talk to' },
            },
          },
        ])
        // A second try, with other answers: nothing changes.
        expect(await complete(ada.token, 'learning', { method: 'interviews', hardest: 'Something else entirely here' })).toEqual({ status: 'done' })
        expect(await placesOf(ada.email)).toBe(20)
        expect((await db.query(`select 1 from private.waitlist_task_answers`)).rows).toHaveLength(1)
        expect(await taskWebhooks()).toEqual([{ task: 'learning', places: 20, answers: expect.objectContaining({ method: expect.anything() }) }])
        expect((await me(ada.token)).tasks).toEqual({ done: [{ task: 'learning', places: 20, status: 'completed' }], places: 20, cap: 50 })
      })

      it('is judged by the sign-up’s rules, with a few words for a short answer', async () => {
        await publish(TASKS)
        const { token, email } = await joined()
        const refused = async (answers: unknown, task = 'learning') => {
          const result = await attempt(token, task, answers)
          return result.ok ? 'stored' : result.code
        }
        expect(await refused({ method: 'surveys' })).toBe('WLA01')
        expect(await refused({ hardest: 'Finding the people to talk to' })).toBe('WLA01')
        expect(await refused({ method: 'focus-groups', hardest: GOOD.hardest })).toBe('WLA02')
        expect(await refused({ method: ['surveys', 'interviews'], hardest: GOOD.hardest })).toBe('WLA02')
        expect(await refused({ method: 'surveys', hardest: 42 })).toBe('WLA02')
        expect(await refused([GOOD])).toBe('WLA02')
        expect(await refused({ method: 'surveys', hardest: 'word '.repeat(101) })).toBe('WLA03')
        expect(await refused({ method: 'surveys', hardest: 'three good words\u202e' })).toBe('WLA04')
        expect(await refused({ method: 'surveys', hardest: 'ok ok' })).toBe('WLA05')
        expect(await refused({ method: 'surveys', hardest: '!!! ??? ...' })).toBe('WLA05')
        expect(await refused({ method: 'surveys', hardest: '\u200b\u200b\u200b' })).toBe('WLA01')
        expect(await refused({ used: [] }, 'tools')).toBe('WLA01')
        expect(await placesOf(email)).toBe(0)
        // A refused try is no try: the task is still open.
        expect(await complete(token, 'learning', { method: 'surveys', hardest: '用户访谈' })).toMatchObject({ status: 'completed' })
        expect(await complete(token, 'tools', { used: ['notion', 'slack', 'notion'] })).toMatchObject({ status: 'completed' })
        const tools = (await db.query<{ a: unknown }>(`select answers -> 'used' as a from private.waitlist_task_answers where task = 'tools'`)).rows[0]!.a
        expect(tools).toMatchObject({ options: ['slack', 'notion'] })
      })

      it('counts words as the own page does', async () => {
        const samples = [
          'ok ok ok',
          'ok ok',
          '!!! ??? ...',
          'don’t stop me',
          'a-b c',
          '用户访谈',
          'Ärger über Umfragen',
          ' spaced\u00a0out\u3000words ',
          'x,y,z',
          '',
        ]
        const counted = await db.query<{ n: number }>(
          `select private.waitlist_word_count(s) as n from unnest($1::text[]) with ordinality t (s, i) order by i`,
          [samples],
        )
        expect(counted.rows.map((row) => row.n)).toEqual(samples.map(wordCount))
        expect(TASK_LIMITS.minWords).toBe(3)
      })

      it('gives places within the cap, and only to a confirmed person in line', async () => {
        await publish([
          { ...TASKS[1], places: 40 },
          { ...TASKS[0], places: 20 },
        ])
        const { token, email } = await joined()
        expect(await complete(token, 'tools', { used: ['slack'] })).toMatchObject({ places: 40 })
        expect(await complete(token, 'learning', GOOD)).toMatchObject({ status: 'completed', places: 10 })
        expect(await placesOf(email)).toBe(50)
        // Invited: no more tasks (the line's key ignores places while invited anyway).
        const other = await joined()
        await db.query(`update public.waitlist set status = 'invited', invited_at = now() where email_key = $1`, [other.email])
        expect(await complete(other.token, 'learning', GOOD)).toEqual({ status: 'closed' })
        // Pending: the link opens nothing yet.
        const pending = address()
        await signUp(pending)
        expect(await complete(await mailToken(pending), 'learning', GOOD)).toEqual({ status: 'closed' })
        expect(await complete(token, 'gone', GOOD)).toEqual({ status: 'unknown' })
        expect(await complete('x'.repeat(43), 'learning', GOOD)).toBeNull()
      })

      it('is revoked once by a founder, who takes its places back; it is not offered again', async () => {
        await publish(TASKS)
        const { token, email } = await joined()
        await complete(token, 'learning', GOOD)
        const id = await idOf(email)
        const [first, second] = await Promise.all([revoke(id, 'learning'), revoke(id, 'learning')])
        expect([first?.changed, second?.changed].sort()).toEqual([false, true])
        expect(await placesOf(email)).toBe(0)
        expect(await revoke(id, 'learning')).toMatchObject({ changed: false })
        expect(await revoke(id, 'tools')).toBeNull()
        expect(await complete(token, 'learning', GOOD)).toEqual({ status: 'done' })
        expect((await me(token)).tasks).toMatchObject({ done: [{ task: 'learning', status: 'revoked' }], places: 0 })
        const counts = await service<unknown[]>(`select coalesce(jsonb_agg(c), '[]') as value from public.waitlist_task_counts() c`)
        expect(counts).toEqual([])
      })

      it('answered twice at once counts once', async () => {
        await publish(TASKS)
        const { token, email } = await joined()
        const answers = await Promise.all(Array.from({ length: 6 }, () => complete(token, 'learning', GOOD)))
        expect(answers.map((answer) => answer?.status).sort()).toEqual(['completed', 'done', 'done', 'done', 'done', 'done'])
        expect(await placesOf(email)).toBe(20)
        expect(await taskWebhooks()).toHaveLength(1)
      })

      it('two tasks at once stay within the cap', async () => {
        await db.exec(`update private.waitlist_task_settings set places_cap = 45`)
        await publish(TASKS)
        const { token, email } = await joined()
        await Promise.all([complete(token, 'learning', GOOD), complete(token, 'tools', { used: ['slack'] })])
        expect(await placesOf(email)).toBe(45)
      })

      it('shows the founders counts and the newest short answers; the export and own data carry the answers', async () => {
        await publish(TASKS)
        const ada = await joined()
        const bea = await joined()
        await complete(ada.token, 'learning', GOOD)
        await complete(bea.token, 'learning', { method: 'interviews', hardest: 'Nobody has any time' })
        await complete(bea.token, 'tools', { used: ['slack', 'other'] })
        const counts = await service<{ task: string; question: string | null; option: string | null; answers: number }[]>(
          `select jsonb_agg(c) as value from public.waitlist_task_counts() c`,
        )
        expect(counts).toEqual([
          { task: 'learning', question: null, option: null, answers: 2 },
          { task: 'learning', question: 'hardest', option: null, answers: 2 },
          { task: 'learning', question: 'method', option: 'interviews', answers: 1 },
          { task: 'learning', question: 'method', option: 'surveys', answers: 1 },
          { task: 'tools', question: null, option: null, answers: 1 },
          { task: 'tools', question: 'used', option: 'other', answers: 1 },
          { task: 'tools', question: 'used', option: 'slack', answers: 1 },
        ])
        const recent = await service<{ email: string; task: string; texts: unknown }[]>(`select jsonb_agg(r) as value from public.waitlist_task_recent(2) r`)
        expect(recent.map((row) => [row.email, row.task])).toEqual([
          [bea.email, 'tools'],
          [bea.email, 'learning'],
        ])
        expect(recent[1]!.texts).toEqual([{ question: 'What is hardest about it?', text: 'Nobody has any time' }])
        const exported = (await exportMe(ada.token))!
        expect(exported.tasks).toMatchObject({ learning: { title: 'How your team learns from users', places: 20, revoked_at: null } })
        const page = await service<unknown[][]>(`select public.waitlist_export_page(null, null, 100) as value`)
        const row = page.find((values) => values[7] === ada.email)!
        expect(row.at(-1)).toMatchObject({ learning: { answers: { hardest: { text: GOOD.hardest } } } })
        expect(await deleteMe(ada.token)).toBe(true)
        expect((await db.query(`select 1 from private.waitlist_task_answers where entry_id not in (select id from public.waitlist)`)).rows).toEqual([])
      })

      it('a publish replaces the set whole and refuses a malformed one', async () => {
        await publish(TASKS)
        const malformed = [
          [{ ...TASKS[0], places: 0 }],
          [{ ...TASKS[0], places: 1001 }],
          [{ ...TASKS[0], places: '20' }],
          [{ ...TASKS[0], questions: [] }],
          [{ ...TASKS[0], key: 'Bad Key' }],
          [TASKS[0], TASKS[0]],
          Array.from({ length: 6 }, (_, i) => ({ ...TASKS[1], key: `t${i}` })),
          [{ ...TASKS[0], titles: { de: 'Nur Deutsch' } }],
          [{ ...TASKS[1], questions: [{ ...TASKS[1]!.questions[0], options: [{ key: 'one', labels: labels('One', 'Eins') }] }] }],
        ]
        for (const tasks of malformed) {
          const result = await runAs(db, 'service_role', 'select public.waitlist_replace_tasks($1::jsonb)', [JSON.stringify(tasks)], {
            request: { headers: {} },
          })
          expect(result, JSON.stringify(tasks).slice(0, 80)).toMatchObject({ ok: false, code: '22023' })
        }
        expect((await db.query('select key from private.waitlist_tasks order by position')).rows).toEqual([{ key: 'learning' }, { key: 'tools' }])
        expect(await publish([])).toBe(0)
      })
    })

    describe('the leaderboard', () => {
      it('names only who opted in, under their initials or a nickname, and forgets who leaves', async () => {
        const ada = await joined(address(), null, 'Ada Lovelace')
        const bea = await joined(address(), null, 'Beatrix')
        const cat = await joined(address(), null, 'Cat Stevens')
        for (let i = 0; i < 2; i++) await joined(address(), (await me(bea.token)).referral_code as string)
        await joined(address(), (await me(ada.token)).referral_code as string)
        expect(await leaderboard()).toEqual([])
        expect(await board(ada.token)).toEqual({ on_board: false, name: null, initials: 'A. L.', hidden: false, rank: null })
        expect(await board(ada.token, 'join')).toMatchObject({ on_board: true, name: 'A. L.', rank: 1 })
        expect(await board(bea.token, 'join', '  Bea the builder ')).toMatchObject({ name: 'Bea the builder', rank: 1 })
        expect(await board(ada.token)).toMatchObject({ rank: 2 })
        expect(await leaderboard()).toEqual([
          { rank: 1, name: 'Bea the builder', referrals: 2 },
          { rank: 2, name: 'A. L.', referrals: 1 },
        ])
        expect((await me(cat.token)).board).toMatchObject({ on_board: false })
        expect(await service('select public.waitlist_share_name($1) as value', [(await me(cat.token)).referral_code])).toBeNull()
        expect(await service('select public.waitlist_share_name($1) as value', [(await me(bea.token)).referral_code])).toBe('Bea the builder')
        // A founder hides one: off the board and out of the share image, still opted in.
        const hidden = await service<{ changed: boolean }>('select public.waitlist_leaderboard_hide($1, true) as value', [await idOf(bea.email)])
        expect(hidden).toMatchObject({ hidden: true, changed: true })
        expect(await leaderboard()).toEqual([{ rank: 1, name: 'A. L.', referrals: 1 }])
        expect(await service('select public.waitlist_share_name($1) as value', [(await me(bea.token)).referral_code])).toBeNull()
        expect(await board(bea.token)).toMatchObject({ on_board: true, hidden: true, rank: null })
        expect(await service('select public.waitlist_leaderboard_hide($1, true) as value', [await idOf(cat.email)])).toBeNull()
        // Opting out, or leaving the list.
        expect(await board(ada.token, 'leave')).toMatchObject({ on_board: false, name: null })
        expect(await leaderboard()).toEqual([])
        await service('select public.waitlist_leaderboard_hide($1, false) as value', [await idOf(bea.email)])
        expect(await leaderboard()).toHaveLength(1)
        expect(await deleteMe(bea.token)).toBe(true)
        expect(await leaderboard()).toEqual([])
      })

      it('refuses a nickname with control characters, markup, an address or a blocked word', async () => {
        const ada = await joined(address(), null, 'Ada')
        const refused = async (nickname: string) => {
          const result = await runAs(db, 'anon', 'select public.waitlist_leaderboard_me($1, $2, $3)', [ada.token, 'join', nickname], {
            keep: true,
            request: api(),
          })
          return result.ok ? 'stored' : result.code
        }
        for (const nickname of [
          'bad\u0007bell',
          'rtl\u202eevil',
          'zero\u200bwidth',
          '<script>x</script>',
          '<b>bold</b>',
          'me@example.com',
          'https://evil.test',
          'www.evil.test',
          'A',
          'x'.repeat(25),
          'The ADMIN',
          'a.d.m.i.n',
          'ｈｅａｒｄｌｙ fan',
        ])
          expect(await refused(nickname), nickname).toBe('WLB01')
        expect(await board(ada.token)).toMatchObject({ on_board: false })
        expect(await refused('Zoë 🚀')).toBe('stored')
        const blocked = await service<string[]>(`select public.waitlist_leaderboard_blocklist(array['Zoe'], array['support']) as value`)
        expect(blocked).toEqual(['admin', 'heardly', 'moderator', 'official', 'zoe'])
        expect(await refused('Zoe again')).toBe('WLB01')
      })

      it('a scraper with the public key finds no address, and forges neither a name, a place nor an answer', async () => {
        await publish(TASKS)
        const ada = await joined(address(), null, 'Ada Lovelace')
        await board(ada.token, 'join')
        const id = await idOf(ada.email)
        const attempts: [string, unknown[]][] = [
          [`select * from public.waitlist_leaderboard(20)`, []],
          [`select * from public.waitlist_leaderboard_entries(20)`, []],
          [`select public.waitlist_share_name('x')`, []],
          [`select public.waitlist_leaderboard_hide($1, true)`, [id]],
          [`select public.waitlist_leaderboard_blocklist(array['x'])`, []],
          [`select public.waitlist_replace_tasks('[]')`, []],
          [`select public.waitlist_revoke_task($1, 'learning')`, [id]],
          [`select * from public.waitlist_task_counts()`, []],
          [`select * from public.waitlist_task_recent(5)`, []],
          [`select * from private.waitlist_task_answers`, []],
          [`insert into private.waitlist_task_answers (entry_id, task, title, answers, places) values ($1, 'learning', 't', '{}', 1000)`, [id]],
          [`select * from private.waitlist_tasks`, []],
          [`select board_name, email from public.waitlist`, []],
          [`update public.waitlist set board_name = 'Forged', board_at = now(), reward_places = 1000`, []],
          [`insert into public.waitlist (name, email, board_name, board_at) values ('Eve', 'eve@panel.test', 'Eve', now())`, []],
          [`select private.waitlist_own_task_answers($1)`, [id]],
          [`select private.waitlist_judge_answers('[]', '{}', 'en', 500, 0, false)`, []],
        ]
        for (const role of ['anon', 'authenticated']) {
          for (const [sql, params] of attempts) {
            expect(await runAs(db, role, sql, params, { request: api() }), `${role}: ${sql}`).toMatchObject({ ok: false, code: '42501' })
          }
        }
        // The only way in is the token: a guessed one opens nothing.
        expect(await complete('A'.repeat(43), 'learning', GOOD)).toBeNull()
        expect(await board('A'.repeat(43), 'join', 'Mallory')).toBeNull()
        const everything = JSON.stringify(await leaderboard())
        expect(everything).not.toContain('@')
        expect(await placesOf(ada.email)).toBe(0)
      })
    })
  },
)
