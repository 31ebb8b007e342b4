import type { FormQuestion } from '@/sanity/questions/limits'
import { Input, inputVariants } from '@/components/ui/input'
import { answerControlId, answerErrorMessage, answerFieldName, SIGN_UP_ANSWER, type AnswerCopy, type AnswerError, type AnswerLimits } from './answers'

type Props = {
  questions: readonly FormQuestion[]
  errors: Readonly<Record<string, AnswerError | undefined>>
  copy: AnswerCopy
  /** Clears a question's error once the person changes its answer. */
  onAnswer: (key: string) => void
  /** The controls' ids start with it: a research task's own, so several tasks share a page (components/waitlist/research-tasks.tsx). */
  idPrefix?: string
  /** A short answer's limits; a research task's is a few lines long, drawn as a text area. */
  limits?: AnswerLimits
}

/**
 * The questions at sign-up, after the e-mail field: a fieldset and legend each, radios for one
 * choice, boxes for several, a line for a short answer. Uncontrolled like the form's fields, so a
 * choice made before the script arrived survives hydration; the error is tied to the fieldset.
 */
export function QuestionFields({ questions, errors, copy, onAnswer, idPrefix = 'waitlist-answer', limits = SIGN_UP_ANSWER }: Props) {
  return questions.map((question) => {
    const error = errors[question.key]
    const errorId = `${idPrefix}-${question.key}-error`
    const name = answerFieldName(question.key)
    const legend = (
      <>
        {question.label}
        {question.required ? <span aria-hidden="true"> *</span> : null}
      </>
    )
    const message = error ? (
      <p id={errorId} className="mt-1.5 text-sm text-red-700">
        {answerErrorMessage(question, error, copy, limits)}
      </p>
    ) : null
    if (question.kind === 'text') {
      const id = answerControlId(question, idPrefix)
      const control = {
        id,
        name,
        maxLength: limits.max,
        defaultValue: '',
        'aria-required': question.required || undefined,
        'aria-invalid': error ? true : undefined,
        'aria-describedby': error ? errorId : undefined,
        onChange: () => onAnswer(question.key),
      }
      return (
        <div key={question.key}>
          <label htmlFor={id} className="block text-sm font-medium text-slate-700">
            {legend}
          </label>
          {limits.minWords > 0 ? <textarea {...control} rows={3} className={inputVariants()} /> : <Input {...control} type="text" />}
          {message}
        </div>
      )
    }
    return (
      // A radio group says it is required or invalid as a whole; each box of several choices does.
      <fieldset
        key={question.key}
        aria-describedby={error ? errorId : undefined}
        {...(question.kind === 'one' ? { role: 'radiogroup', 'aria-required': question.required || undefined, 'aria-invalid': error ? true : undefined } : {})}
      >
        <legend className="text-sm font-medium text-slate-700">{legend}</legend>
        <div className="mt-2 flex flex-wrap gap-x-5 gap-y-2">
          {question.options.map((option) => {
            const id = `${idPrefix}-${question.key}-${option.key}`
            return (
              <div key={option.key} className="flex items-center gap-2">
                <input
                  id={id}
                  name={name}
                  type={question.kind === 'one' ? 'radio' : 'checkbox'}
                  value={option.key}
                  defaultChecked={false}
                  aria-invalid={question.kind === 'many' && error ? true : undefined}
                  onChange={() => onAnswer(question.key)}
                  className="h-5 w-5 shrink-0 border-slate-300 text-brand-600 focus:ring-2 focus:ring-brand-600/20"
                />
                <label htmlFor={id} className="text-sm text-slate-700">
                  {option.label}
                </label>
              </div>
            )
          })}
        </div>
        {message}
      </fieldset>
    )
  })
}
