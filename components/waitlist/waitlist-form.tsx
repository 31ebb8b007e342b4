'use client'

import { lazy, Suspense, useEffect, useRef, useState, type FormEvent } from 'react'
import { useAfterHydration } from '@/lib/after-hydration'
import { whenShown } from '@/lib/prerender'
import type { WaitlistPage } from '@/sanity/content'
import { WAITLIST_LIMITS, validateWaitlistInput, waitlistErrorMessage, type WaitlistFieldErrors } from '@/components/waitlist/rules'
import { track } from '@/components/analytics/client'
import { browserRefusesTracking } from '@/components/analytics/consent'
import { waitlistJoinProperties } from '@/components/analytics/events'
import { HONEYPOT_FIELD, honeypotFilled, remainingFillTime } from '@/components/waitlist/bot-filter'
import { readSource } from '@/components/waitlist/source'
import { Button } from '@/components/ui/button'
import { Input } from '@/components/ui/input'
import { TrailingLink } from '@/components/ui/trailing-link'
import { useWaitlistReport } from './waitlist-flow'
import type { AnswerError } from './answers'
import type { FormQuestion } from '@/sanity/questions/limits'

// The questions' fields and their checks load only on a page that asks some (most ask none): the
// form's own script stays within /waitlist's first-load budget (docs/bench.md).
const QuestionFields = lazy(() => import('./question-fields').then((module) => ({ default: module.QuestionFields })))

type Props = {
  copy: WaitlistPage['form']
  /** Passed from the server so the browser bundle carries no environment module. */
  backend: { url: string; anonKey: string }
  /** The page's language: the sign-up records it, and every e-mail to the person is written in it. */
  language: string
  /** The questions at sign-up, in the page's language (none unless the Studio has some). */
  questions: readonly FormQuestion[]
}

type Values = { name: string; company: string; email: string }

/**
 * What the fields hold when the form is sent, read from the form itself. The fields are
 * uncontrolled on purpose: React's hydration sets a controlled input to its state, which wiped
 * whatever a person typed or autofilled while the script was still loading on a slow phone
 * (e2e/waitlist.spec.ts, "typed before the script arrived").
 */
function formValues(form: HTMLFormElement): Values {
  const data = new FormData(form)
  const text = (name: keyof Values) => {
    const value = data.get(name)
    return typeof value === 'string' ? value : ''
  }
  return { name: text('name'), company: text('company'), email: text('email') }
}

export function WaitlistForm({ copy, backend, language, questions }: Props) {
  const report = useWaitlistReport()
  const [errors, setErrors] = useState<WaitlistFieldErrors>({})
  const [answerErrors, setAnswerErrors] = useState<Record<string, AnswerError | undefined>>({})
  const [submitting, setSubmitting] = useState(false)
  // State updates are not synchronous: a ref stops a double click from sending twice.
  const inFlight = useRef(false)
  const shownAt = useRef(Number.POSITIVE_INFINITY)
  // Until hydration the button stays disabled: a native submit would put the fields in the URL.
  const hydrated = useAfterHydration(() => true, false)

  // From when the visitor could see it: a prerendered form was not in front of anyone (lib/prerender.ts).
  useEffect(
    () =>
      whenShown(() => {
        shownAt.current = performance.now()
      }),
    [],
  )

  const clearError = (field: keyof Values) => () => {
    if (errors[field]) setErrors((current) => ({ ...current, [field]: undefined }))
  }

  async function onSubmit(event: FormEvent<HTMLFormElement>) {
    event.preventDefault()
    if (inFlight.current) return
    const formElement = event.currentTarget
    const current = formValues(formElement)
    // Product updates by e-mail: off unless the person ticked the box (consent is never assumed).
    const wantsUpdates = new FormData(formElement).get('updates') === 'yes'
    const validation = validateWaitlistInput(current)
    let answers: typeof import('./answers') | null = null
    if (questions.length > 0) {
      // Held while the answers' checks load: a second press meanwhile must not send the form twice.
      inFlight.current = true
      try {
        answers = await import('./answers')
      } catch {
        // The chunk itself failed to load (offline, deploy in between): nothing was sent.
        report({ status: 'failed', message: 'Failed to save to waitlist' })
        return
      } finally {
        inFlight.current = false
      }
    }
    const asked = answers?.validateAnswers(questions, answers.readAnswers(new FormData(formElement), questions)) ?? { answers: {}, errors: {} }
    if (!validation.ok || Object.keys(asked.errors).length > 0) {
      setErrors(validation.ok ? {} : validation.errors)
      setAnswerErrors(asked.errors)
      const first = validation.ok ? undefined : (['name', 'company', 'email'] as const).find((field) => validation.errors[field])
      const question = questions.find((entry) => asked.errors[entry.key])
      const target = first ? `waitlist-${first}` : question ? answers?.answerControlId(question) : undefined
      if (target) document.getElementById(target)?.focus()
      return
    }
    const bait = formElement.elements.namedItem(HONEYPOT_FIELD)
    if (bait instanceof HTMLInputElement && honeypotFilled(bait.value)) {
      // Told the truth, never a false confirmation: nothing is stored. The field is cleared, so a
      // person whose extension filled it can simply press the button again.
      bait.value = ''
      report({ status: 'automated' })
      return
    }
    inFlight.current = true
    setSubmitting(true)
    try {
      // A submit faster than a person could type (autofill, Enter at once) is held, not dropped.
      const wait = remainingFillTime(shownAt.current, performance.now())
      // The database client loads on first submit, not with the page, while the wait runs.
      const [{ createWaitlistClient }, { joinWaitlist, assignmentsToRecord }] = await Promise.all([
        import('@/components/waitlist/client'),
        import('@/components/waitlist/join'),
        new Promise((resolve) => setTimeout(resolve, wait)),
      ])
      const result = await joinWaitlist(createWaitlistClient(backend.url, backend.anonKey), current, readSource(), {
        updates: wantsUpdates,
        language,
        experiments: assignmentsToRecord(document.cookie, browserRefusesTracking()),
        answers: asked.answers,
      })
      if (result.status === 'saved')
        track(
          'waitlist_join',
          waitlistJoinProperties({ email: validation.row.email, company: validation.row.project }, answers?.answerProperties(questions, asked.answers)),
        )
      report(result)
    } catch {
      // The chunk itself failed to load (offline, deploy in between): nothing was sent.
      report({ status: 'failed', message: 'Failed to save to waitlist' })
    } finally {
      inFlight.current = false
      setSubmitting(false)
    }
  }

  const field = (
    name: keyof Values,
    label: string,
    placeholder: string | null,
    options: { type?: string; required?: boolean; autoComplete: string; maxLength: number; showLimit?: boolean },
  ) => {
    const id = `waitlist-${name}`
    const error = errors[name]
    const describedBy = [options.showLimit && `${id}-hint`, error && `${id}-error`].filter(Boolean).join(' ')
    return (
      <div>
        <label htmlFor={id} className="block text-sm font-medium text-slate-700">
          {label}
        </label>
        <Input
          id={id}
          name={name}
          type={options.type ?? 'text'}
          required={options.required}
          autoComplete={options.autoComplete}
          maxLength={options.maxLength}
          placeholder={placeholder ?? undefined}
          defaultValue=""
          onChange={clearError(name)}
          aria-invalid={error ? true : undefined}
          aria-describedby={describedBy || undefined}
        />
        {options.showLimit ? (
          <p id={`${id}-hint`} className="mt-1 text-xs text-slate-500">
            {copy.lengthHint.replace('{n}', String(options.maxLength))}
          </p>
        ) : null}
        {error ? (
          <p id={`${id}-error`} className="mt-1.5 text-sm text-red-700">
            {waitlistErrorMessage(name, error, copy)}
          </p>
        ) : null}
      </div>
    )
  }

  return (
    <form
      onSubmit={onSubmit}
      noValidate
      aria-labelledby="waitlist-form-title"
      className="relative rounded-2xl border border-slate-200 bg-white p-6 shadow-xl sm:p-8"
    >
      <h2 id="waitlist-form-title" className="text-2xl font-bold text-slate-900">
        {copy.title}
      </h2>
      <div className="mt-6 space-y-5">
        {field('name', copy.nameLabel, copy.namePlaceholder, { required: true, autoComplete: 'name', maxLength: WAITLIST_LIMITS.name, showLimit: true })}
        {field('company', copy.companyLabel, copy.companyPlaceholder, { autoComplete: 'organization', maxLength: WAITLIST_LIMITS.project, showLimit: true })}
        {field('email', copy.emailLabel, copy.emailPlaceholder, { type: 'email', required: true, autoComplete: 'email', maxLength: WAITLIST_LIMITS.email })}
        {questions.length > 0 ? (
          <Suspense>
            <QuestionFields
              questions={questions}
              errors={answerErrors}
              copy={copy}
              onAnswer={(key) => {
                if (answerErrors[key]) setAnswerErrors((current) => ({ ...current, [key]: undefined }))
              }}
            />
          </Suspense>
        ) : null}
        <div className="flex items-start gap-3">
          <input
            id="waitlist-updates"
            name="updates"
            type="checkbox"
            value="yes"
            defaultChecked={false}
            className="mt-0.5 h-5 w-5 shrink-0 rounded border-slate-300 text-brand-600 focus:ring-2 focus:ring-brand-600/20"
          />
          <label htmlFor="waitlist-updates" className="text-sm text-slate-700">
            {copy.updatesLabel}
          </label>
        </div>
      </div>
      {/* Bot bait: off-screen, hidden from assistive technology, out of the tab order, and named so
          that no autofill or password manager fills it (see components/waitlist/bot-filter.ts). */}
      <div aria-hidden="true" className="absolute -left-[9999px] top-0 h-px w-px overflow-hidden">
        <label htmlFor={`waitlist-${HONEYPOT_FIELD}`}>Leave this field empty</label>
        <input
          id={`waitlist-${HONEYPOT_FIELD}`}
          name={HONEYPOT_FIELD}
          type="text"
          tabIndex={-1}
          autoComplete="off"
          data-1p-ignore="true"
          data-lpignore="true"
          data-bwignore="true"
          data-form-type="other"
          defaultValue=""
        />
      </div>
      <Button type="submit" disabled={!hydrated || submitting} size="lg" className="mt-6 w-full">
        {submitting ? copy.submittingLabel : copy.submitLabel}
      </Button>
      <p className="mt-4 text-center text-sm text-slate-500">
        {copy.privacyNote}
        <TrailingLink link={copy.privacyLink} />
      </p>
    </form>
  )
}
