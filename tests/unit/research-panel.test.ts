/**
 * The research tasks' rules (sanity/tasks/rules.ts: what the Studio refuses and what the publish
 * copies), the own page's judgement of a task's answers (components/waitlist/answers.ts with a
 * task's limits), their copy into the database on publish (components/waitlist/tasks-sync.ts), the
 * own page's reading of what the database answers (components/waitlist/link.ts) and the export's
 * task columns (tools/owner/csv.ts). The database: tests/integration/research-panel-db.test.ts.
 */
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest'
import { placesProblem, publishableTasks, taskKeyProblem, taskListProblem, taskQuestionsProblem, tasksIn, type TaskDraft } from '@/sanity/tasks/rules'
import { TASK_LIMITS, wordCount } from '@/sanity/questions/limits'
import { validateAnswers, answerErrorMessage } from '@/components/waitlist/answers'
import { syncPublishedTasks } from '@/components/waitlist/tasks-sync'
import { taskCells, taskColumns, waitlistToCsv, type AnsweredTasks, type WaitlistEntry } from '@/tools/owner/csv'
import { editorsTasksExample } from '@/tools/content/experiment-example'
import { sendWebhook, WEBHOOK_TEST_SECRET } from '../helpers/revalidate-webhook'

const fake = vi.hoisted(() => ({
  tasks: (async () => []) as () => Promise<unknown>,
  rpc: (async () => ({ data: 0, error: null, status: 200 })) as (
    fn: string,
    args: unknown,
  ) => Promise<{ data: unknown; error: { message: string; code?: string } | null; status: number }>,
}))
vi.mock('next/cache', () => ({ revalidateTag: () => undefined }))
vi.mock('@/components/waitlist/updates-configured', () => ({ configuredBroadcast: () => ({ readPost: async () => null, broadcast: null }) }))
vi.mock('@/sanity/content/published', async () => {
  const { publishedTasksQuery } = await import('@/sanity/queries')
  return { readPublished: (query: string) => (query === publishedTasksQuery ? fake.tasks() : Promise.resolve([])) }
})
vi.mock('@/lib/supabase/configured', () => ({ configuredServiceClient: () => ({ rpc: (fn: string, args: unknown) => fake.rpc(fn, args) }) }))

const { POST } = await import('@/app/api/revalidate/route')

const example = editorsTasksExample()
const drafts = () => structuredClone(example.tasks) as unknown as TaskDraft[]

describe('the tasks’ rules', () => {
  it('accept the editors’ guide’s example, and publish it whole in each language', () => {
    expect(taskListProblem(drafts())).toBeNull()
    const { tasks, skipped } = publishableTasks(drafts())
    expect(skipped).toEqual([])
    expect(tasks.map((task) => [task.key, task.places, task.questions.length])).toEqual([
      ['how-you-learn', 10, 2],
      ['your-tools', 5, 1],
    ])
    const german = tasksIn(tasks, 'de')
    expect(german[0]).toMatchObject({
      title: 'Wie Ihr Team von Nutzern lernt',
      questions: [
        { key: 'method', required: true },
        { kind: 'text', required: true },
      ],
    })
    // A language without its words falls back to English.
    expect(tasksIn(tasks, 'fr')[0]!.title).toBe('How your team learns from users')
  })

  it('refuse more than 5 tasks, two with one key, a bad key, places out of range, no questions or too many', () => {
    const [first] = drafts() as [TaskDraft]
    expect(taskListProblem(Array.from({ length: 6 }, (_, i) => ({ ...first, key: `t${i}` })))).toMatch(/At most 5 tasks/)
    expect(taskListProblem([first, { ...first }])).toMatch(/Two tasks use the key "how-you-learn"/)
    expect(taskKeyProblem('How You Learn')).toMatch(/lowercase/)
    expect(taskKeyProblem(undefined)).toMatch(/Give the task a key/)
    for (const places of [0, 1001, 2.5, -1]) expect(placesProblem(places), String(places)).toMatch(/1 to 1000/)
    expect(placesProblem(undefined)).toMatch(/how many places/)
    expect(taskQuestionsProblem([])).toMatch(/at least one question/)
    expect(taskQuestionsProblem(Array.from({ length: 6 }, (_, i) => ({ ...first.questions![0], key: `q${i}` })))).toMatch(/At most 5 questions/)
  })

  it('a document written around the Studio loses only the task that breaks a rule, named', () => {
    const [good, other] = drafts() as [TaskDraft, TaskDraft]
    const broken = [
      { ...good, places: 0 },
      { ...other, title: [{ language: 'en', text: 'bell\u0007' }] },
      { ...other, key: 'ok-key', questions: [{ ...other.questions![0]!, options: [] }] },
      null,
      good,
    ]
    const { tasks, skipped } = publishableTasks(broken)
    expect(tasks.map((task) => task.key)).toEqual(['how-you-learn'])
    expect(skipped).toHaveLength(4)
    expect(skipped[0]).toMatch(/"how-you-learn".*1 to 1000/)
  })
})

describe('a task’s answers on the own page', () => {
  const [learning] = tasksIn(publishableTasks(drafts()).tasks, 'en')
  const limits = { max: TASK_LIMITS.answer, minWords: TASK_LIMITS.minWords }
  const judge = (given: Record<string, string[]>) => validateAnswers(learning!.questions, given, limits)

  it('every question is required, a short answer takes 3 words and at most 500 characters', () => {
    expect(judge({}).errors).toEqual({ method: 'required', hardest: 'required' })
    expect(judge({ method: ['surveys'], hardest: ['two words'] }).errors).toEqual({ hardest: 'too_few_words' })
    expect(judge({ method: ['surveys'], hardest: ['a '.repeat(251)] }).errors).toEqual({ hardest: 'too_long' })
    expect(judge({ method: ['surveys'], hardest: ['three good words\u202e'] }).errors).toEqual({ hardest: 'invalid_characters' })
    expect(judge({ method: ['focus-groups'], hardest: ['finding the people'] }).errors).toEqual({ method: 'required' })
    expect(judge({ method: ['surveys'], hardest: ['  finding the people  '] })).toEqual({
      answers: { method: 'surveys', hardest: 'finding the people' },
      errors: {},
    })
  })

  it('says "at least {n} words" in the page’s words', () => {
    const copy = {
      errorRequired: 'Required',
      errorTooLong: 'Over {n}',
      errorInvalidCharacters: 'Odd',
      errorChoose: 'Choose',
      answerInSentence: 'answer',
      errorFewWords: 'At least {n} words.',
    }
    expect(answerErrorMessage({ kind: 'text' }, 'too_few_words', copy, limits)).toBe('At least 3 words.')
    expect(answerErrorMessage({ kind: 'text' }, 'too_long', copy, limits)).toBe('Over 500')
  })

  it('counts words as runs between spaces and punctuation, and each Chinese or Japanese character as one', () => {
    expect(['ok ok ok', 'ok,ok', '!!! ???', '用户访谈', 'über alles', 'e-mail it', ''].map(wordCount)).toEqual([3, 2, 0, 4, 2, 3, 0])
  })
})

describe('syncPublishedTasks', () => {
  it('stores what the database can take, keeps the last set when Sanity cannot be read', async () => {
    const replaced: unknown[] = []
    const replace = async (tasks: unknown[]) => (replaced.push(tasks), tasks.length)
    expect(await syncPublishedTasks({ read: async () => [drafts()[0], { ...drafts()[1], key: 'Bad' }], replace })).toEqual({
      kind: 'synced',
      tasks: 1,
      skipped: [expect.stringContaining('"Bad"')],
    })
    expect(await syncPublishedTasks({ read: () => Promise.reject(new Error('ENOTFOUND')), replace })).toMatchObject({ kind: 'kept' })
    expect(await syncPublishedTasks({ read: async () => ({ not: 'a list' }), replace })).toMatchObject({ kind: 'kept' })
    expect(replaced).toHaveLength(1)
  })
})

describe('on every publish webhook', () => {
  beforeAll(() => vi.stubEnv('SANITY_REVALIDATE_SECRET', WEBHOOK_TEST_SECRET))
  afterAll(() => vi.unstubAllEnvs())

  it('copies the tasks, and a failed copy answers 500 to the tasks’ own publish only', async () => {
    const calls: [string, unknown][] = []
    fake.tasks = async () => drafts().slice(0, 1)
    fake.rpc = async (fn, args) => (calls.push([fn, args]), { data: fn === 'waitlist_replace_tasks' ? 1 : 0, error: null, status: 200 })
    expect(await sendWebhook(POST, { _type: 'waitlistTasks', _id: 'waitlistTasks' })).toMatchObject({
      status: 200,
      body: { tasks: { kind: 'synced', tasks: 1 } },
    })
    expect(calls.find(([fn]) => fn === 'waitlist_replace_tasks')![1]).toMatchObject({
      tasks: [{ key: 'how-you-learn', places: 10, titles: { de: 'Wie Ihr Team von Nutzern lernt' } }],
    })
    fake.rpc = async () => ({ data: null, error: { message: 'permission denied', code: '42501' }, status: 403 })
    expect(await sendWebhook(POST, { _type: 'waitlistTasks', _id: 'waitlistTasks' })).toMatchObject({ status: 500, body: { tasks: { kind: 'kept' } } })
    expect(await sendWebhook(POST, { _type: 'post', _id: 'post-1' })).toMatchObject({ status: 200 })
  })
})

describe('the export’s task columns', () => {
  const answered: AnsweredTasks = {
    'how-you-learn': {
      title: 'How your team learns from users',
      answers: {
        method: { question: 'How?', kind: 'one', options: ['surveys'], labels: ['Surveys'] },
        hardest: { question: 'Hardest?', kind: 'text', text: '=HYPERLINK("x") finding, people' },
      },
      places: 10,
      completed_at: '2026-12-02T10:00:00Z',
      revoked_at: null,
    },
    'your-tools': {
      title: 'Tools',
      answers: { tools: { question: 'Where?', kind: 'many', options: ['slack', 'jira'], labels: [] } },
      places: 5,
      completed_at: '',
      revoked_at: '2026-12-02T11:00:00Z',
    },
  }

  it('a column per task: each question’s answer, “revoked:” before a revoked one, empty when unanswered; quoted as CSV', () => {
    expect(taskColumns(['how-you-learn', 'your-tools'])).toEqual(['task_how-you-learn', 'task_your-tools'])
    expect(taskCells(answered, ['how-you-learn', 'your-tools', 'gone'])).toEqual([
      'method: surveys | hardest: =HYPERLINK("x") finding, people',
      'revoked: tools: slack; jira',
      null,
    ])
    const entry = { created_at: '2026-12-02', email: 'ada@example.com', name: 'Ada', tasks: answered } as unknown as WaitlistEntry
    const csv = waitlistToCsv([entry], { tasks: ['how-you-learn'] })
    expect(csv.split('\r\n')[0]).toMatch(/,task_how-you-learn$/)
    // Quoted for its comma and quotes; a cell starts with a question's key, never a formula's trigger.
    expect(csv.split('\r\n')[1]).toMatch(/,"method: surveys \| hardest: =HYPERLINK\(""x""\) finding, people"$/)
  })
})
