/**
 * Choosing whom to let in by their answers (issue #52): the segment the console's ticked answers
 * and `waitlist:invite --where key=option` both name, checked against the questions published now,
 * and how the line answers each question (public.waitlist_answer_counts). `--where rung=<key>`
 * takes those granted a rung of the rewards ladder instead (supabase/schemas/18_rewards.sql). The database judges
 * membership (private.waitlist_in_segment, supabase/schemas/15_questions.sql); this module reads
 * the founder's words into a segment and says it back.
 */
import type { PublishedQuestion } from '../../sanity/questions/rules'
import { publishedQuestions, type OwnerClient, type Segment } from './owner'

/** A question the line can be split by: one with options. */
export type ChoiceQuestion = PublishedQuestion & { kind: 'one' | 'many' }
export const choiceQuestions = (questions: readonly PublishedQuestion[]) => questions.filter((question): question is ChoiceQuestion => question.kind !== 'text')

const english = (labels: Record<string, string>) => labels.en ?? Object.values(labels)[0] ?? ''

/** The segment's key for rungs granted: no question key can start with "@" (private.waitlist_segment_check). */
export const RUNG_SEGMENT = '@rung'

/**
 * `["role=product-manager", "role=founder", "tools=slack,jira"]` into {"role": [...], "tools": [...]}:
 * the same question named twice widens it (either option), two questions narrow it (both). Each
 * key and option must be published now, or the founder is told which are. `rung=badge,call`:
 * granted either rung, of `rungs` (the ladder's, and any earned since it changed).
 */
export function segmentFrom(
  conditions: readonly string[],
  questions: readonly PublishedQuestion[],
  rungs: readonly string[] = [],
): { segment: Segment } | { problem: string } {
  const segment: Segment = {}
  const choices = choiceQuestions(questions)
  for (const condition of conditions) {
    const [key, values, ...rest] = condition.split('=')
    if (!key || values === undefined || rest.length > 0) return { problem: `"${condition}" is not key=option (e.g. role=product-manager)` }
    if (key.trim() === 'rung') {
      for (const rung of values.split(',').map((value) => value.trim())) {
        if (!rungs.includes(rung))
          return { problem: `No rung "${rung}"${rungs.length ? `; the rungs are: ${rungs.join(', ')}` : ': no rewards ladder is published'}` }
        const chosen = (segment[RUNG_SEGMENT] ??= [])
        if (!chosen.includes(rung)) chosen.push(rung)
      }
      continue
    }
    const question = choices.find((candidate) => candidate.key === key.trim())
    if (!question) {
      const keys = choices.map((candidate) => candidate.key)
      return { problem: `No published question with options has the key "${key}"${keys.length ? `; they are: ${keys.join(', ')}` : ': none is published'}` }
    }
    for (const value of values.split(',').map((option) => option.trim())) {
      if (!question.options.some((option) => option.key === value)) {
        return { problem: `"${question.key}" has no option "${value}"; its options are: ${question.options.map((option) => option.key).join(', ')}` }
      }
      const chosen = (segment[question.key] ??= [])
      if (!chosen.includes(value)) chosen.push(value)
    }
  }
  return { segment }
}

/** "role: Product manager or Founder, and tools: Slack", in the questions' English words. */
export function describeSegment(segment: Segment, questions: readonly PublishedQuestion[]): string {
  return Object.entries(segment)
    .map(([key, options]) => {
      if (key === RUNG_SEGMENT) return `rung: ${options.join(' or ')} (granted)`
      const question = questions.find((candidate) => candidate.key === key)
      const label = (option: string) => english(question?.options.find((candidate) => candidate.key === option)?.labels ?? {}) || option
      return `${key}: ${options.map(label).join(' or ')}`
    })
    .join(', and ')
}

export type AnswerCount = { option: string; label: string; entries: number }
export type QuestionCounts = { key: string; label: string; kind: PublishedQuestion['kind']; answered: number; options: AnswerCount[] }

/**
 * How the line (confirmed, not yet invited) answers each published question: every option with its
 * count, options nobody chose included; a short answer as how many gave one.
 */
export function answerCounts(
  questions: readonly PublishedQuestion[],
  rows: readonly { question: string; option: string | null; entries: number }[],
): QuestionCounts[] {
  return questions.map((question) => {
    const mine = rows.filter((row) => row.question === question.key)
    const options = question.options.map((option) => {
      const entries = mine.find((row) => row.option === option.key)?.entries ?? 0
      return { option: option.key, label: english(option.labels), entries }
    })
    const answered = question.kind === 'text' ? (mine.find((row) => row.option === null)?.entries ?? 0) : 0
    return { key: question.key, label: english(question.labels), kind: question.kind, answered, options }
  })
}

export type AnswersView = { questions: PublishedQuestion[]; counts: QuestionCounts[]; inLine: number }

/** The questions, and how the line answers them: a scan of the line, skipped while no question is published. */
export async function readAnswerCounts(client: OwnerClient): Promise<AnswersView> {
  const questions = await publishedQuestions(client)
  if (questions.length === 0) return { questions, counts: [], inLine: 0 }
  const counted = await client.rpc('waitlist_answer_counts')
  if (counted.error) throw new Error(`Could not count the answers (HTTP ${counted.status}): ${counted.error.message}`)
  const rows = counted.data as { question: string | null; option: string | null; entries: number }[]
  const inLine = rows.find((row) => row.question === null)?.entries ?? 0
  const answers = rows.filter((row): row is { question: string; option: string | null; entries: number } => row.question !== null)
  return { questions, counts: answerCounts(questions, answers), inLine }
}
