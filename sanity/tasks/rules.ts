import { inLanguage, labelsOf, localizedProblem, repeated, type Labels, type LocalizedDraft } from '../localized-text'
import {
  isQuestionKind,
  optionKeyProblem,
  optionsProblem,
  QUESTION_LIMITS,
  questionKeyProblem,
  type FormQuestion,
  type PublishedQuestion,
  type QuestionDraft,
} from '../questions/rules'
import { TASK_LIMITS } from '../questions/limits'

/**
 * Research tasks (issue #69): what the Studio accepts, what the site's server copies to the
 * database on publish (components/waitlist/tasks-sync.ts) and what the own page draws. A task's
 * questions are the sign-up's kinds with the sign-up's rules (../questions/rules.ts), every one
 * required, a short answer up to TASK_LIMITS.answer characters and at least TASK_LIMITS.minWords
 * words. The database repeats each rule in supabase/schemas/19_tasks.sql (waitlist_replace_tasks)
 * and 15_questions.sql (waitlist_judge_answers); tests/integration/research-panel-db.test.ts holds
 * them together. Free of Sanity and Next.
 */

export { TASK_LIMITS } from '../questions/limits'

export type TaskDraft = { _key?: string; key?: string; places?: number; title?: LocalizedDraft[]; questions?: QuestionDraft[] }

export type PublishedTask = { key: string; places: number; titles: Labels; questions: Omit<PublishedQuestion, 'required'>[] }

/** A task as the own page draws it, in one language: every question required. */
export type FormTask = { key: string; places: number; title: string; questions: FormQuestion[] }

export function taskKeyProblem(key: string | undefined): string | null {
  if (!key) return 'Give the task a key, e.g. "how-you-learn"'
  return questionKeyProblem(key) === null
    ? null
    : 'Use up to 40 lowercase letters, digits and hyphens, starting with a letter (it names the answers in the export, the console and the task.completed webhook: keep it once people have answered)'
}

export function placesProblem(places: number | undefined): string | null {
  if (places === undefined) return 'Say how many places the task gives'
  return Number.isInteger(places) && places >= 1 && places <= TASK_LIMITS.places ? null : `A whole number of places, 1 to ${TASK_LIMITS.places}`
}

export function taskListProblem(tasks: readonly TaskDraft[] | undefined): string | null {
  const list = tasks ?? []
  if (list.length > TASK_LIMITS.tasks) return `At most ${TASK_LIMITS.tasks} tasks`
  const duplicate = repeated(list.map((task) => task.key).filter(Boolean))
  return duplicate ? `Two tasks use the key "${duplicate}"` : null
}

export function taskQuestionsProblem(questions: readonly QuestionDraft[] | undefined): string | null {
  const list = questions ?? []
  if (list.length === 0) return 'A task asks at least one question'
  if (list.length > TASK_LIMITS.questions) return `At most ${TASK_LIMITS.questions} questions: a task should take a minute`
  const duplicate = repeated(list.map((question) => question.key).filter(Boolean))
  return duplicate ? `Two questions use the key "${duplicate}"` : null
}

function questionProblem(question: QuestionDraft): string | null {
  return (
    questionKeyProblem(question.key) ??
    (isQuestionKind(question.kind) ? null : 'no kind') ??
    localizedProblem(question.label, [], QUESTION_LIMITS.label) ??
    optionsProblem(question) ??
    (question.options ?? []).map((option) => optionKeyProblem(option.key) ?? localizedProblem(option.label, [], QUESTION_LIMITS.optionLabel)).find(Boolean) ??
    null
  )
}

/**
 * The tasks the database can take, from what the publish query answers. The Studio refuses
 * anything else; a document written around it loses the task that breaks a rule, named in
 * `skipped`, rather than every task.
 */
export function publishableTasks(answer: readonly unknown[]): { tasks: PublishedTask[]; skipped: string[] } {
  const tasks: PublishedTask[] = []
  const skipped: string[] = []
  for (const item of answer.slice(0, TASK_LIMITS.tasks)) {
    const draft = (typeof item === 'object' && item !== null ? item : {}) as TaskDraft
    const problem =
      taskKeyProblem(draft.key) ??
      (tasks.some((task) => task.key === draft.key) ? 'a key used twice' : null) ??
      placesProblem(draft.places) ??
      localizedProblem(draft.title, [], TASK_LIMITS.title) ??
      taskQuestionsProblem(draft.questions) ??
      (draft.questions ?? []).map(questionProblem).find(Boolean) ??
      null
    if (problem) {
      skipped.push(`task ${JSON.stringify(draft.key ?? null)} (${problem})`)
      continue
    }
    tasks.push({
      key: draft.key!,
      places: draft.places!,
      titles: labelsOf(draft.title),
      questions: (draft.questions ?? []).map((question) => ({
        key: question.key!,
        kind: question.kind as PublishedQuestion['kind'],
        labels: labelsOf(question.label),
        options: (question.options ?? []).map((option) => ({ key: option.key!, labels: labelsOf(option.label) })),
      })),
    })
  }
  for (const item of answer.slice(TASK_LIMITS.tasks))
    skipped.push(`task ${JSON.stringify((item as TaskDraft | null)?.key ?? null)} (over ${TASK_LIMITS.tasks})`)
  return { tasks, skipped }
}

/** The published tasks in `language` (English where a word is missing), as the database judges them. */
export function tasksIn(tasks: readonly PublishedTask[], language: string): FormTask[] {
  return tasks.map(({ key, places, titles, questions }) => ({
    key,
    places,
    title: inLanguage(titles, language),
    questions: questions.map((question) => ({
      key: question.key,
      kind: question.kind,
      required: true,
      label: inLanguage(question.labels, language),
      options: question.options.map((option) => ({ key: option.key, label: inLanguage(option.labels, language) })),
    })),
  }))
}
