'use client'

import { CircleCheck } from 'lucide'
import { SvgIcon } from '@/components/ui/svg-icon'
import { createContext, useCallback, useContext, useEffect, useRef, useState, type ReactNode } from 'react'
import type { WaitlistPage } from '@/sanity/content'
import type { JoinResult } from '@/components/waitlist/join'
import { ButtonLink } from '@/components/ui/button'
import { Toast, type ToastMessage } from '@/components/ui/toast'

/** What the database answered, or the form's own refusal of a submission that looked automated. */
export type WaitlistOutcome = JoinResult | { status: 'automated' }

type Report = (result: WaitlistOutcome) => void

const ReportContext = createContext<Report | null>(null)

/** The form reports each outcome here; the page swaps itself for the confirmation on success. */
export function useWaitlistReport(): Report {
  const report = useContext(ReportContext)
  if (!report) throw new Error('useWaitlistReport must be used inside <WaitlistFlow>')
  return report
}

const TOAST_TONE: Record<WaitlistOutcome['status'], ToastMessage['tone']> = {
  saved: 'success',
  duplicate: 'info',
  automated: 'error',
  rate_limited: 'error',
  questions_changed: 'error',
  failed: 'error',
}

function outcomeText(result: WaitlistOutcome, messages: WaitlistPage['messages']): string {
  switch (result.status) {
    case 'saved':
      return messages.success
    case 'duplicate':
      return messages.duplicate
    case 'automated':
      return messages.automated
    case 'rate_limited':
      return messages.rateLimited
    case 'questions_changed':
      return messages.questionsChanged
    case 'failed':
      // The database answered and refused, or the request never completed.
      return result.httpStatus ? messages.backendError : messages.failure
  }
}

type Props = {
  confirmation: WaitlistPage['confirmation']
  messages: WaitlistPage['messages']
  /** The home page in the page's language, where the confirmation's button leads. */
  homeHref: string
  children: ReactNode
}

export function WaitlistFlow({ confirmation, messages, homeHref, children }: Props) {
  const [saved, setSaved] = useState(false)
  const [toast, setToast] = useState<ToastMessage | null>(null)
  const headingRef = useRef<HTMLHeadingElement>(null)

  const report = useCallback<Report>(
    (result) => {
      if (result.status === 'saved') setSaved(true)
      setToast({ tone: TOAST_TONE[result.status], text: outcomeText(result, messages), id: Date.now() })
    },
    [messages],
  )

  useEffect(() => {
    if (saved) headingRef.current?.focus()
  }, [saved])

  return (
    <ReportContext.Provider value={report}>
      {saved ? (
        <section
          aria-labelledby="confirmation-title"
          className="mx-auto max-w-xl rounded-2xl border border-slate-200 bg-white p-8 text-center shadow-sm sm:p-12"
        >
          <SvgIcon icon={CircleCheck} className="mx-auto size-14 text-emerald-600" />
          <h1 id="confirmation-title" ref={headingRef} tabIndex={-1} className="mt-6 text-3xl font-bold text-slate-900 focus:outline-none">
            {confirmation.title}
          </h1>
          <p className="mt-4 text-lg text-slate-600">{confirmation.text}</p>
          <div className="mt-8 rounded-xl bg-slate-50 p-6 text-left">
            <h2 className="font-semibold text-slate-900">{confirmation.nextStepsTitle}</h2>
            <ul className="mt-3 list-disc space-y-2 pl-5 text-slate-700">
              {confirmation.nextSteps.map((step) => (
                <li key={step}>{step}</li>
              ))}
            </ul>
          </div>
          <ButtonLink href={homeHref} size="lg" className="mt-8">
            {confirmation.backLabel}
          </ButtonLink>
        </section>
      ) : (
        children
      )}
      <Toast message={toast} onDismiss={() => setToast(null)} />
    </ReportContext.Provider>
  )
}
