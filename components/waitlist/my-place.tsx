'use client'

import { useEffect, useRef, useState } from 'react'
import type { WaitlistPlacePanel } from '@/sanity/content/types'
import { countedWords, ladderProgress, type LadderRung } from '@/sanity/rewards/ladder'
import { track } from '@/components/analytics/client'
import { deleteMe, exportMyData, fetchLinkState, myUpdates, referralLink, type MyPlace } from '@/components/waitlist/link'
import { fillTemplate } from '@/components/waitlist/template'
import { ShareKit } from '@/components/waitlist/share-kit'
import { Button } from '@/components/ui/button'
import { Input } from '@/components/ui/input'
import type { Research } from './research-tasks'
import { loadOwnPageParts, ownPageParts } from './own-page-parts'

type Props = {
  copy: WaitlistPlacePanel
  /** The reward ladder in the page's language; empty when none is published. */
  rewards: LadderRung[]
  /** The research tasks and the leaderboard choice, with their words. */
  research: Research
  backend: { url: string; anonKey: string }
  /** The person's language: the referral link leads to the waitlist page in it. */
  language: string
  /** The e-mailed link's token: the only key to this person's data, kept in memory only. */
  token: string
  /** The place as the page already read it; without it the panel reads it itself (just after confirming). */
  initial?: MyPlace
  /** Called once the entry is erased, so the page around says so instead of "confirmed". */
  onDeleted: () => void
}

type Load = { state: 'loading' } | { state: 'ready'; me: MyPlace } | { state: 'unavailable' }

/**
 * A confirmed person's place in line, their referral link with the share kit (share-kit.tsx)
 * and their own data (download as JSON, delete after a second press). Everything goes through the
 * database's own functions with the token; nothing is cached or stored in the browser.
 */
export function MyPlacePanel({ copy, rewards, research, backend, language, token, initial, onDeleted }: Props) {
  const [load, setLoad] = useState<Load>(initial ? { state: 'ready', me: initial } : { state: 'loading' })
  const [parts, setParts] = useState(ownPageParts)

  useEffect(() => {
    // Unavailable without them: the tasks and the board are the page's, not extras to drop.
    if (!parts) void loadOwnPageParts().then(setParts, () => setLoad({ state: 'unavailable' }))
  }, [parts])

  useEffect(() => {
    if (initial) {
      if (initial.place !== null) track('waitlist_position_viewed', {})
      return
    }
    let live = true
    void fetchLinkState(backend, token).then((result) => {
      if (!live) return
      if (result === 'unreachable' || result === null || result.status !== 'confirmed') return setLoad({ state: 'unavailable' })
      setLoad({ state: 'ready', me: result })
      if (result.place !== null) track('waitlist_position_viewed', {})
    })
    return () => {
      live = false
    }
  }, [backend, token, initial])

  if (load.state === 'loading' || (load.state === 'ready' && !parts))
    return <section aria-busy="true" aria-label={copy.title} className="mt-8 min-h-40 border-t border-slate-200 pt-8" />
  if (load.state === 'unavailable') return <p className="mt-8 border-t border-slate-200 pt-8 text-slate-600">{copy.unavailableText}</p>

  const { me } = load
  const { ResearchTasks, LeaderboardChoice } = parts!
  const link = referralLink(window.location.origin, me.referralCode, language)

  return (
    <section aria-labelledby="place-title" className="mt-8 border-t border-slate-200 pt-8">
      <h2 id="place-title" className="text-xl font-semibold text-slate-900">
        {copy.title}
      </h2>
      {me.place !== null ? <p className="mt-3 text-lg text-slate-700">{fillTemplate(copy.placeText, { place: me.place, total: me.confirmedTotal })}</p> : null}
      <p className="mt-1 text-slate-600">{fillTemplate(copy.referralsText, { n: me.referrals })}</p>
      <Rewards copy={copy} rungs={rewards} me={me} language={language} />
      <ResearchTasks
        {...research}
        unavailableText={copy.unavailableText}
        backend={backend}
        token={token}
        me={me}
        onMoved={(place) => setLoad({ state: 'ready', me: { ...me, place } })}
      />
      <LeaderboardChoice copy={research.copy} unavailableText={copy.unavailableText} backend={backend} token={token} initial={me.board} language={language} />

      <h3 className="mt-8 font-semibold text-slate-900">{copy.referralTitle}</h3>
      <p className="mt-2 text-slate-600">{fillTemplate(copy.referralText, { places: me.placesPerReferral })}</p>
      <label htmlFor="referral-link" className="mt-4 block text-sm font-medium text-slate-700">
        {copy.linkLabel}
      </label>
      <Input tone="copy" id="referral-link" readOnly value={link} onFocus={(event) => event.currentTarget.select()} />
      <ShareKit copy={copy} link={link} code={me.referralCode} language={language} />
      <OwnData copy={copy} backend={backend} token={token} onDeleted={onDeleted} />
    </section>
  )
}

/**
 * The reward ladder as it stands for this person: what the database recorded as theirs (a held perk
 * says it waits for the founders) and how many more confirmed friends the next rung takes, which
 * before any friend is the first rung. Nothing without a published ladder.
 */
function Rewards({ copy, rungs, me, language }: { copy: WaitlistPlacePanel; rungs: LadderRung[]; me: MyPlace; language: string }) {
  if (rungs.length === 0) return null
  const { earned, next } = ladderProgress(rungs, me.referrals, me.rewards)
  return (
    <div className="mt-6 rounded-xl bg-brand-50 p-4">
      <h3 className="font-semibold text-slate-900">{copy.rewardsTitle}</h3>
      {next ? (
        <p className="mt-2 text-slate-700" data-testid="next-reward">
          {fillTemplate(countedWords({ one: copy.rewardNextOne, other: copy.rewardNextOther }, next.remaining, language), {
            n: next.remaining,
            reward: next.rung.title,
          })}
        </p>
      ) : null}
      {next?.rung.description ? <p className="mt-1 text-sm text-slate-600">{next.rung.description}</p> : null}
      {earned.length > 0 ? (
        <ul className="mt-3 space-y-2">
          {earned.map((reward) => (
            <li key={reward.key} className="text-slate-700">
              <span className="font-medium text-slate-900">{reward.title}</span>
              {' · '}
              <span className="text-sm">{reward.status === 'held' ? copy.rewardHeldLabel : copy.rewardEarnedLabel}</span>
            </li>
          ))}
        </ul>
      ) : null}
    </div>
  )
}

/**
 * Updates by e-mail, as the database has them for this person: a checkbox that changes them at once.
 * Shown only once the database has said (never a guess at someone's consent), and not at all for a
 * link that cannot have them.
 */
function UpdatesChoice({ copy, backend, token }: Omit<Props, 'initial' | 'onDeleted' | 'language' | 'rewards' | 'research'>) {
  const [updates, setUpdates] = useState<boolean | null>(null)
  const [busy, setBusy] = useState(false)
  const [status, setStatus] = useState('')

  // Asked once per link (each call counts against the network's own-data allowance), not per render.
  const { url, anonKey } = backend
  useEffect(() => {
    let current = true
    void myUpdates({ url, anonKey }, token, null).then((answer) => {
      if (current && typeof answer === 'boolean') setUpdates(answer)
    })
    return () => {
      current = false
    }
  }, [url, anonKey, token])

  async function change(wanted: boolean) {
    setBusy(true)
    const answer = await myUpdates(backend, token, wanted)
    setBusy(false)
    if (typeof answer !== 'boolean') return setStatus(copy.unavailableText)
    setUpdates(answer)
    setStatus(copy.updatesSaved)
  }

  if (updates === null) return null
  return (
    <div className="mt-4">
      <div className="flex items-start gap-3">
        <input
          id="my-updates"
          type="checkbox"
          checked={updates}
          disabled={busy}
          onChange={(event) => void change(event.target.checked)}
          className="mt-0.5 h-5 w-5 shrink-0 rounded border-slate-300 text-brand-600 focus:ring-2 focus:ring-brand-600/20"
        />
        <label htmlFor="my-updates" className="text-slate-700">
          {copy.updatesLabel}
        </label>
      </div>
      <p role="status" className="mt-1 text-sm text-slate-700">
        {status}
      </p>
    </div>
  )
}

/**
 * A person's own data, whatever their status: whether they get updates by e-mail, download
 * everything stored (JSON, as the database exports it) or delete the entry now, after a second press. A section of its own (an h2) on the
 * invited and joined pages, the last part of the place panel (an h3) otherwise.
 */
export function OwnData({
  copy,
  backend,
  token,
  onDeleted,
  standalone = false,
}: Omit<Props, 'initial' | 'language' | 'rewards' | 'research'> & { standalone?: boolean }) {
  const [status, setStatus] = useState('')
  const [confirmingDelete, setConfirmingDelete] = useState(false)
  const [busy, setBusy] = useState(false)
  const keepButton = useRef<HTMLButtonElement>(null)

  useEffect(() => {
    if (confirmingDelete) keepButton.current?.focus()
  }, [confirmingDelete])

  async function download() {
    setBusy(true)
    const data = await exportMyData(backend, token)
    setBusy(false)
    if (typeof data !== 'string') return setStatus(copy.unavailableText)
    const url = URL.createObjectURL(new Blob([data], { type: 'application/json' }))
    const anchor = Object.assign(document.createElement('a'), { href: url, download: 'my-waitlist-data.json' })
    anchor.click()
    setTimeout(() => URL.revokeObjectURL(url), 10_000)
  }

  async function erase() {
    setBusy(true)
    const result = await deleteMe(backend, token)
    setBusy(false)
    if (result === 'unreachable') return setStatus(copy.unavailableText)
    onDeleted()
  }

  const Heading = standalone ? 'h2' : 'h3'
  return (
    <div className={standalone ? 'mt-8 border-t border-slate-200 pt-8' : undefined}>
      <Heading className={standalone ? 'text-xl font-semibold text-slate-900' : 'mt-8 font-semibold text-slate-900'}>{copy.dataTitle}</Heading>
      <p className="mt-2 text-slate-600">{copy.dataText}</p>
      <UpdatesChoice copy={copy} backend={backend} token={token} />
      {confirmingDelete ? (
        <div className="mt-4 rounded-xl bg-red-50 p-4">
          <p className="text-red-900">{copy.deleteConfirmText}</p>
          <div className="mt-3 flex flex-wrap gap-2">
            <Button disabled={busy} onClick={erase} size="sm" variant="danger">
              {copy.deleteConfirmLabel}
            </Button>
            <Button ref={keepButton} onClick={() => setConfirmingDelete(false)} variant="secondary" size="sm">
              {copy.cancelLabel}
            </Button>
          </div>
        </div>
      ) : (
        <div className="mt-4 flex flex-wrap gap-2">
          <Button disabled={busy} onClick={download} variant="secondary" size="sm">
            {copy.downloadLabel}
          </Button>
          <Button onClick={() => setConfirmingDelete(true)} variant="ghost" size="sm">
            {copy.deleteLabel}
          </Button>
        </div>
      )}
      <p role="status" className="mt-4 text-sm text-slate-700">
        {status}
      </p>
    </div>
  )
}
