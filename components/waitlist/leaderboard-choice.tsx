'use client'

import { useState, type FormEvent } from 'react'
import { localizePath } from '@/lib/i18n/languages'
import type { WaitlistTasksPanel } from '@/sanity/content/types'
import { Button } from '@/components/ui/button'
import { Input } from '@/components/ui/input'
import { chooseBoard, type BoardState } from './link'
import { fillTemplate } from './template'

type Props = {
  copy: WaitlistTasksPanel
  unavailableText: string
  backend: { url: string; anonKey: string }
  token: string
  initial: BoardState
  language: string
}

/**
 * The person's choice to appear on the public leaderboard (/waitlist/leaderboard,
 * supabase/schemas/20_leaderboard.sql): off until they join, under their initials unless they
 * give a nickname, which the database holds to its rule (a refused one says so here); leaving
 * takes them off at the board's next refresh. Shows their rank among those on it.
 */
export function LeaderboardChoice({ copy, unavailableText, backend, token, initial, language }: Props) {
  const [board, setBoard] = useState(initial)
  const [busy, setBusy] = useState(false)
  const [status, setStatus] = useState('')
  const [invalid, setInvalid] = useState(false)

  async function choose(choice: 'join' | 'leave', nickname: string | null) {
    setBusy(true)
    const answer = await chooseBoard(backend, token, choice, nickname)
    setBusy(false)
    setInvalid(answer === 'refused')
    if (answer === 'refused') return setStatus(copy.nicknameError)
    if (answer === 'gone' || answer === 'unreachable') return setStatus(unavailableText)
    setBoard(answer)
    setStatus('')
  }

  function join(event: FormEvent<HTMLFormElement>) {
    event.preventDefault()
    const nickname = new FormData(event.currentTarget).get('nickname')
    void choose('join', typeof nickname === 'string' && nickname.trim() !== '' ? nickname : null)
  }

  const boardLink = (
    <a href={localizePath('/waitlist/leaderboard', language)} className="font-semibold text-brand-700 underline underline-offset-2 hover:text-brand-900">
      {copy.boardLinkLabel}
    </a>
  )
  return (
    <section aria-labelledby="board-title" className="mt-8">
      <h3 id="board-title" className="font-semibold text-slate-900">
        {copy.boardTitle}
      </h3>
      {board.onBoard ? (
        <>
          <p className="mt-2 text-slate-700" data-testid="board-state">
            {board.hidden ? copy.boardHiddenText : fillTemplate(copy.boardOnText, { name: board.name ?? '', rank: board.rank ?? '–' })}
          </p>
          <div className="mt-3 flex flex-wrap items-center gap-x-4 gap-y-2">
            <Button onClick={() => void choose('leave', null)} disabled={busy} variant="secondary" size="sm">
              {copy.boardLeaveLabel}
            </Button>
            {boardLink}
          </div>
        </>
      ) : (
        <form onSubmit={join} noValidate className="mt-2">
          <p className="text-slate-600">{fillTemplate(copy.boardText, { initials: board.initials })}</p>
          <label htmlFor="board-nickname" className="mt-3 block text-sm font-medium text-slate-700">
            {copy.nicknameLabel}
          </label>
          <Input
            id="board-nickname"
            name="nickname"
            maxLength={24}
            autoComplete="nickname"
            aria-invalid={invalid || undefined}
            aria-describedby="board-nickname-hint"
            onChange={() => setInvalid(false)}
          />
          <p id="board-nickname-hint" className="mt-1 text-sm text-slate-600">
            {copy.nicknameHint}
          </p>
          <div className="mt-3 flex flex-wrap items-center gap-x-4 gap-y-2">
            <Button type="submit" disabled={busy} size="sm">
              {copy.boardJoinLabel}
            </Button>
            {boardLink}
          </div>
        </form>
      )}
      <p role="status" className="mt-2 text-sm text-slate-700">
        {status}
      </p>
    </section>
  )
}
