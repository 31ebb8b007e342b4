'use client'

import { useEffect, useRef, useState } from 'react'
import type { WaitlistPage } from '@/sanity/content/types'
import { Button, ButtonLink } from '@/components/ui/button'
import { tokenFromHash } from '@/components/waitlist/link'
import { isUpdatesToken, UNSUBSCRIBE_PATH } from '@/components/waitlist/unsubscribe-path'
import { localizePath } from '@/lib/i18n/languages'

type Props = { copy: WaitlistPage['unsubscribePage']; /** The page's language: its way home leads to the home page in it. */ language: string }
type State = 'ready' | 'sending' | 'done' | 'failed'

/** The page's words for what the link does: leave the list, or (an update e-mail's link) stop updates only. */
function wordsFor(copy: WaitlistPage['unsubscribePage'], updates: boolean) {
  return updates
    ? {
        title: copy.updatesTitle,
        text: copy.updatesText,
        buttonLabel: copy.updatesButtonLabel,
        sendingLabel: copy.updatesSendingLabel,
        doneTitle: copy.updatesDoneTitle,
        doneText: copy.updatesDoneText,
      }
    : copy
}

/**
 * Takes the person off the list when they press the button, never on arrival: the link may have
 * been opened by a mail scanner. The token leaves the address bar at once; the answer is the same
 * whether or not the address was on the list. An update e-mail's link only stops updates (the
 * database decides, from the token): the page says so, from the token's form alone, asking nobody.
 */
export function LeaveWaitlist({ copy, language }: Props) {
  const [state, setState] = useState<State>('ready')
  const [updates, setUpdates] = useState(false)
  const token = useRef<string | null>(null)
  const heading = useRef<HTMLHeadingElement>(null)

  useEffect(() => {
    token.current = tokenFromHash(window.location.hash)
    // Read once from the address (the server never sees the fragment): the words follow the link's kind.
    setUpdates(isUpdatesToken(token.current))
    if (window.location.hash) window.history.replaceState(window.history.state, '', window.location.pathname)
  }, [])

  useEffect(() => {
    if (state === 'done') heading.current?.focus()
  }, [state])

  async function leave() {
    setState('sending')
    try {
      const response = await fetch(`${UNSUBSCRIBE_PATH}?token=${encodeURIComponent(token.current ?? '')}`, { method: 'POST', cache: 'no-store' })
      setState(response.ok ? 'done' : 'failed')
    } catch {
      setState('failed')
    }
  }

  const done = state === 'done'
  const words = wordsFor(copy, updates)
  return (
    <section aria-labelledby="leave-title" className="mx-auto max-w-xl rounded-2xl border border-slate-200 bg-white p-8 shadow-sm sm:p-12">
      <h1 id="leave-title" ref={heading} tabIndex={-1} className="text-3xl font-bold text-slate-900 focus:outline-none">
        {done ? words.doneTitle : words.title}
      </h1>
      <p className="mt-4 text-lg text-slate-600">{done ? words.doneText : words.text}</p>
      <noscript>
        <p data-no-script-note="" className="mt-4 text-lg text-slate-600">
          {copy.noScriptText}
        </p>
      </noscript>
      {done ? (
        <ButtonLink href={localizePath('/', language)} variant="ghost" size="sm" className="mt-8">
          {copy.backLabel}
        </ButtonLink>
      ) : (
        <Button onClick={leave} disabled={state === 'sending'} variant={updates ? 'primary' : 'danger'} size="lg" className="mt-8 w-full sm:w-auto">
          {state === 'sending' ? words.sendingLabel : words.buttonLabel}
        </Button>
      )}
      <p role="status" className="mt-4 text-sm text-red-700">
        {state === 'failed' ? copy.failedText : ''}
      </p>
    </section>
  )
}
