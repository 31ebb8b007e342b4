'use client'

import { useState, type FormEvent } from 'react'
import type { FormTask } from '@/sanity/tasks/rules'
import { TASK_LIMITS } from '@/sanity/questions/limits'
import type { WaitlistPage, WaitlistTasksPanel } from '@/sanity/content/types'
import { Button } from '@/components/ui/button'
import { answerControlId, readAnswers, validateAnswers, type AnswerError, type AnswerLimits } from './answers'
import { completeTask, type MyPlace } from './link'
import { QuestionFields } from './question-fields'
import { fillTemplate } from './template'

/** What the own page needs of the research tasks: the published tasks and their words, in the page's language. */
export type Research = {
  copy: WaitlistTasksPanel
  tasks: FormTask[]
  /** The form's error words, which the tasks' questions share with the sign-up's. */
  formCopy: Pick<WaitlistPage['form'], 'errorRequired' | 'errorTooLong' | 'errorInvalidCharacters' | 'errorChoose' | 'answerInSentence'>
}

type Props = Research & {
  /** The place panel's "could not reach the list" words. */
  unavailableText: string
  backend: { url: string; anonKey: string }
  token: string
  me: MyPlace
  /** The database's new place after a task moved the person up. */
  onMoved: (place: number | null) => void
}

const TASK_ANSWER: AnswerLimits = { max: TASK_LIMITS.answer, minWords: TASK_LIMITS.minWords }

/**
 * The research tasks on a confirmed person's own page (supabase/schemas/19_tasks.sql): each open
 * task a form of its questions, judged here as the database judges it (every question answered, a
 * short answer of a few words), sent once. An answered task shows that it was (or that a founder
 * took it back), and is not offered again. Nothing without published tasks.
 */
export function ResearchTasks({ copy, tasks, formCopy, unavailableText, backend, token, me, onMoved }: Props) {
  if (tasks.length === 0) return null
  const done = new Map(me.tasks.done.map((entry) => [entry.task, entry.status]))
  return (
    <section aria-labelledby="tasks-title" className="mt-8">
      <h3 id="tasks-title" className="font-semibold text-slate-900">
        {copy.title}
      </h3>
      <p className="mt-2 text-slate-600">{copy.text}</p>
      <ul className="mt-4 space-y-4">
        {tasks.map((task) => (
          <li key={task.key} className="rounded-xl border border-slate-200 p-4" data-task={task.key}>
            <TaskForm
              task={task}
              status={done.get(task.key)}
              copy={copy}
              formCopy={formCopy}
              unavailableText={unavailableText}
              backend={backend}
              token={token}
              onMoved={onMoved}
            />
          </li>
        ))}
      </ul>
    </section>
  )
}

type Outcome =
  | { kind: 'open' }
  | { kind: 'sending' }
  | { kind: 'moved'; places: number; place: number | null }
  | { kind: 'answered' }
  | { kind: 'closed' }
  | { kind: 'failed' }

function TaskForm({
  task,
  status,
  copy,
  formCopy,
  unavailableText,
  backend,
  token,
  onMoved,
}: Omit<Props, 'tasks' | 'me'> & { task: FormTask; status: 'completed' | 'revoked' | undefined }) {
  const [errors, setErrors] = useState<Record<string, AnswerError>>({})
  const [outcome, setOutcome] = useState<Outcome>({ kind: 'open' })
  const prefix = `task-${task.key}`
  const heading = (
    <h4 className="flex flex-wrap items-baseline justify-between gap-x-3 font-medium text-slate-900">
      <span>{task.title}</span>
      <span className="text-sm font-normal text-brand-700">{fillTemplate(copy.placesLabel, { places: task.places })}</span>
    </h4>
  )
  if (status || outcome.kind === 'moved' || outcome.kind === 'answered' || outcome.kind === 'closed') {
    const text =
      outcome.kind === 'moved'
        ? fillTemplate(copy.doneText, { places: outcome.places, place: outcome.place ?? '–' })
        : outcome.kind === 'closed'
          ? copy.closedText
          : status === 'revoked'
            ? copy.revokedLabel
            : copy.completedLabel
    return (
      <>
        {heading}
        <p role="status" className="mt-2 text-slate-700">
          {text}
        </p>
      </>
    )
  }

  async function submit(event: FormEvent<HTMLFormElement>) {
    event.preventDefault()
    const { answers, errors } = validateAnswers(task.questions, readAnswers(new FormData(event.currentTarget), task.questions), TASK_ANSWER)
    setErrors(errors)
    const first = task.questions.find((question) => errors[question.key])
    if (first) return document.getElementById(answerControlId(first, prefix))?.focus()
    setOutcome({ kind: 'sending' })
    const result = await completeTask(backend, token, task.key, answers)
    if (result.status === 'completed') {
      onMoved(result.place)
      return setOutcome({ kind: 'moved', places: result.places, place: result.place })
    }
    // Answered from another tab: as answered here. Removed, or invited meanwhile: closed.
    if (result.status === 'done') return setOutcome({ kind: 'answered' })
    if (result.status === 'closed' || result.status === 'unknown' || result.status === 'gone') return setOutcome({ kind: 'closed' })
    setOutcome({ kind: 'failed' })
  }

  return (
    <form noValidate onSubmit={submit} aria-label={task.title} className="space-y-4">
      {heading}
      <QuestionFields
        questions={task.questions}
        errors={errors}
        copy={{ ...formCopy, errorFewWords: copy.fewWordsError }}
        idPrefix={prefix}
        limits={TASK_ANSWER}
        onAnswer={(key) => setErrors(({ [key]: _cleared, ...rest }) => rest)}
      />
      <Button type="submit" size="sm" disabled={outcome.kind === 'sending'}>
        {outcome.kind === 'sending' ? copy.submittingLabel : copy.submitLabel}
      </Button>
      <p role="status" className="text-sm text-red-700">
        {outcome.kind === 'failed' ? unavailableText : ''}
      </p>
    </form>
  )
}
