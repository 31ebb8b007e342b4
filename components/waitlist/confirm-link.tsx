'use client'

import { useEffect, useRef, useState, type FormEvent } from 'react'
import { clsx } from 'clsx'
import type { WaitlistConfirmPage, WaitlistPage, WaitlistPlacePanel } from '@/sanity/content/types'
import type { LadderRung } from '@/sanity/rewards/ladder'
import { track } from '@/components/analytics/client'
import { invitationUrl } from '@/components/waitlist/invitation-url'
import { localizePath } from '@/lib/i18n/languages'
import {
  confirmWaitlistLink,
  fetchInvitationToken,
  fetchLinkState,
  requestWaitlistLink,
  tokenFromHash,
  type LinkRequestResult,
  type LinkStateResult,
  type MyPlace,
} from '@/components/waitlist/link'
import { Button, ButtonLink } from '@/components/ui/button'
import { Input } from '@/components/ui/input'
import { MyPlacePanel, OwnData } from './my-place'
import type { Research } from './research-tasks'
import { loadOwnPageParts } from './own-page-parts'

type Props = {
  copy: WaitlistConfirmPage
  /** Shown under a confirmation: place in line, referral link, own data. */
  placeCopy: WaitlistPlacePanel
  /** The reward ladder in the page's language: the place panel shows what they earned and the next rung. */
  rewards: LadderRung[]
  /** The research tasks and the leaderboard choice under the place. */
  research: Research
  messages: Pick<WaitlistPage['messages'], 'rateLimited' | 'failure'>
  /** Passed from the server so the browser bundle carries no environment module. */
  backend: { url: string; anonKey: string }
  /** The product's app (Site settings → App address): where an invited person goes in. */
  appUrl: string
  /** The page's language: its links lead to the home and waitlist pages in it. */
  language: string
}

type State =
  | { view: 'checking' | 'ready' | 'confirming' | 'expired' | 'invalid' | 'unreachable' | 'deleted' }
  /** Their place came up (the way into the app), or they already took it. */
  | { view: 'invited' | 'joined'; token: string }
  /** Just confirmed here: the panel loads the place with the link's token. */
  | { view: 'confirmed'; token: string }
  /** A confirmed person's link: their page, the place already read. */
  | { view: 'already'; token: string; me: MyPlace }

/** Moves the token from the address (bar and history) into `into`: it is never shown or kept. */
function takeToken(into: { current: string | null }) {
  into.current = tokenFromHash(window.location.hash)
  if (window.location.hash) window.history.replaceState(window.history.state, '', window.location.pathname)
}

/** The page for what a link opens, as waitlist_me answers it. */
function stateFor(result: LinkStateResult, token: string): State {
  if (result === 'unreachable') return { view: 'unreachable' }
  if (result === null) return { view: 'invalid' }
  if (result.status === 'pending') return { view: 'ready' }
  if (result.status === 'expired') return { view: 'expired' }
  if (result.status === 'invited' || result.status === 'joined') return { view: result.status, token }
  return { view: 'already', token, me: result }
}

/**
 * Reads the token from the link's fragment on the client (the page itself is static, and the
 * fragment never reaches a server log), removes it from the address bar and history, and asks the
 * database what it opens. Nothing is confirmed until the person presses the button: a mail
 * scanner or preview that opens links (and even runs their scripts) confirms nobody. Every answer
 * is a page a person can act on: never an error screen.
 */
export function ConfirmLink({ copy, placeCopy, rewards, research, messages, backend, appUrl, language }: Props) {
  const [state, setState] = useState<State>({ view: 'checking' })
  const token = useRef<string | null>(null)
  const heading = useRef<HTMLHeadingElement>(null)

  function load() {
    setState({ view: 'checking' })
    const held = token.current
    if (!held) return setState({ view: 'invalid' })
    // The own page's parts download beside the read, so a confirmed person's page is drawn whole.
    void Promise.all([fetchLinkState(backend, held), loadOwnPageParts().catch(() => null)]).then(([result]) => setState(stateFor(result, held)))
  }

  async function confirm() {
    const held = token.current
    if (!held) return
    setState({ view: 'confirming' })
    const result = await confirmWaitlistLink(backend, held)
    if (result === 'confirmed') {
      track('waitlist_confirmed', {})
      return setState({ view: 'confirmed', token: held })
    }
    // Confirmed meanwhile (another tab), expired or gone: show what the link opens now.
    if (result === 'already_confirmed') return load()
    setState({ view: result })
  }

  const started = useRef(false)
  useEffect(() => {
    // Once per page, also under React's development double-run of effects.
    if (started.current) return
    started.current = true
    takeToken(token)
    load()
    // Runs once: the token is read on arrival.
    // eslint-disable-next-line react-hooks/exhaustive-deps
  }, [])

  useEffect(() => {
    // Another link opened in this tab (pasted, or clicked in a webmail tab) changes only the
    // fragment: the browser does not reload the page, so the new token is read here.
    const onHashChange = () => {
      if (!tokenFromHash(window.location.hash)) return
      takeToken(token)
      load()
    }
    window.addEventListener('hashchange', onHashChange)
    return () => window.removeEventListener('hashchange', onHashChange)
    // eslint-disable-next-line react-hooks/exhaustive-deps
  }, [])

  const { view } = state
  useEffect(() => {
    if (view !== 'checking' && view !== 'confirming') heading.current?.focus()
  }, [view])

  const [title, text] = {
    checking: [copy.checkingTitle, copy.checkingText],
    ready: [copy.readyTitle, copy.readyText],
    confirming: [copy.readyTitle, copy.readyText],
    confirmed: [copy.confirmedTitle, copy.confirmedText],
    already: [copy.alreadyTitle, copy.alreadyText],
    invited: [copy.invitedTitle, copy.invitedText],
    joined: [copy.joinedTitle, copy.joinedText],
    expired: [copy.expiredTitle, copy.expiredText],
    invalid: [copy.invalidTitle, copy.invalidText],
    unreachable: [copy.unreachableTitle, copy.unreachableText],
    deleted: [placeCopy.deletedTitle, placeCopy.deletedText],
  }[view]

  return (
    <section
      aria-labelledby="confirm-title"
      aria-busy={view === 'checking' || view === 'confirming'}
      className="mx-auto max-w-xl rounded-2xl border border-slate-200 bg-white p-8 shadow-sm sm:p-12"
    >
      <h1 id="confirm-title" ref={heading} tabIndex={-1} className="text-3xl font-bold text-slate-900 focus:outline-none">
        {title}
      </h1>
      {/* One paragraph for every state, drawn in the server's HTML with the checking text: the answer
          changes its words, not the element, so the first paint stays the page's largest (LCP) and the
          answer moves nothing. */}
      <p className="mt-4 text-lg text-slate-600">{text}</p>
      {view === 'checking' ? (
        // Only a browser without JavaScript shows it: the check below never runs there.
        <noscript>
          <p data-no-script-note="" className="mt-4 text-lg text-slate-600">
            {copy.noScriptText}
          </p>
        </noscript>
      ) : null}
      {view === 'ready' || view === 'confirming' ? (
        <Button onClick={confirm} disabled={view === 'confirming'} size="lg" className="mt-8 w-full sm:w-auto">
          {view === 'confirming' ? copy.confirmingLabel : copy.confirmLabel}
        </Button>
      ) : null}
      {view === 'unreachable' ? (
        <Button onClick={load} size="lg" className="mt-8">
          {copy.retryLabel}
        </Button>
      ) : null}
      {state.view === 'invited' ? <OpenApp copy={copy} backend={backend} token={state.token} appUrl={appUrl} onGone={load} /> : null}
      {state.view === 'joined' ? (
        <ButtonLink href={appUrl} size="lg" className="mt-8 w-full sm:w-auto">
          {copy.signInLabel}
        </ButtonLink>
      ) : null}
      {state.view === 'invited' || state.view === 'joined' ? (
        <OwnData copy={placeCopy} backend={backend} token={state.token} onDeleted={() => setState({ view: 'deleted' })} standalone />
      ) : null}
      {state.view === 'confirmed' || state.view === 'already' ? (
        <MyPlacePanel
          copy={placeCopy}
          rewards={rewards}
          research={research}
          backend={backend}
          language={language}
          token={state.token}
          initial={state.view === 'already' ? state.me : undefined}
          onDeleted={() => setState({ view: 'deleted' })}
        />
      ) : null}
      {view === 'expired' || view === 'invalid' ? (
        <>
          <NewLinkForm copy={copy} messages={messages} backend={backend} />
          <p className="mt-6 text-slate-600">
            {copy.rejoinText}{' '}
            <a href={localizePath('/waitlist', language)} className="font-semibold text-brand-700 underline underline-offset-2 hover:text-brand-900">
              {copy.rejoinLabel}
            </a>
          </p>
        </>
      ) : null}
      {view !== 'checking' && view !== 'unreachable' && view !== 'ready' && view !== 'confirming' ? (
        <ButtonLink href={localizePath('/', language)} variant="ghost" size="sm" className="mt-8">
          {copy.backLabel}
        </ButtonLink>
      ) : null}
    </section>
  )
}

/**
 * The way in for an invited person: a fresh invitation token from the database (the e-mailed ones
 * keep working), straight to the app. If the invitation was used or ran out meanwhile, the page
 * shows what the link opens now.
 */
function OpenApp({
  copy,
  backend,
  token,
  appUrl,
  onGone,
}: {
  copy: Props['copy']
  backend: Props['backend']
  token: string
  appUrl: string
  onGone: () => void
}) {
  const [opening, setOpening] = useState(false)
  const [failed, setFailed] = useState(false)
  async function open() {
    setOpening(true)
    const invitation = await fetchInvitationToken(backend, token)
    if (typeof invitation === 'string') return window.location.assign(invitationUrl(appUrl, invitation))
    setOpening(false)
    if (invitation === null) return onGone()
    setFailed(true)
  }
  return (
    <>
      <Button onClick={open} disabled={opening} size="lg" className="mt-8 w-full sm:w-auto">
        {opening ? copy.openingAppLabel : copy.openAppLabel}
      </Button>
      <p role="status" className="mt-2 text-sm text-red-700">
        {failed ? copy.unreachableText : ''}
      </p>
    </>
  )
}

function NewLinkForm({ copy, messages, backend }: Omit<Props, 'placeCopy' | 'rewards' | 'research' | 'appUrl' | 'language'>) {
  const [sending, setSending] = useState(false)
  const [result, setResult] = useState<LinkRequestResult | null>(null)

  async function onSubmit(event: FormEvent<HTMLFormElement>) {
    event.preventDefault()
    if (sending) return
    const email = String(new FormData(event.currentTarget).get('email') ?? '').trim()
    if (!email) return
    setSending(true)
    setResult(await requestWaitlistLink(backend, email))
    setSending(false)
  }

  const said = result === 'sent' ? copy.resendDone : result === 'rate_limited' ? messages.rateLimited : result === 'unreachable' ? messages.failure : ''
  return (
    <form onSubmit={onSubmit} aria-labelledby="resend-title" className="mt-8 rounded-xl bg-slate-50 p-6">
      <h2 id="resend-title" className="font-semibold text-slate-900">
        {copy.resendTitle}
      </h2>
      <label htmlFor="resend-email" className="mt-4 block text-sm font-medium text-slate-700">
        {copy.resendEmailLabel}
      </label>
      <Input id="resend-email" name="email" type="email" required autoComplete="email" maxLength={254} />
      <Button type="submit" disabled={sending} size="lg" className="mt-4 w-full">
        {sending ? copy.resendSendingLabel : copy.resendLabel}
      </Button>
      <p role="status" className={clsx('mt-4 text-sm', result === 'sent' ? 'text-emerald-800' : 'text-red-700')}>
        {said}
      </p>
    </form>
  )
}
