/**
 * The link page's calls to the database: what a link's token opens, confirming it (on a press of
 * the button, never on load), asking for a new link, and the holder's own data.
 * Plain fetch to PostgREST's RPC endpoint with the public key (the `apikey` header, which the
 * Supabase gateway and the local double both accept), so the confirm page's island stays small:
 * no supabase-js. Browser-safe. A token of a shape the site never sends opens nothing, answered
 * here without a request: PostgREST refuses some of its bytes (NUL, a lone surrogate) with a 400
 * that would otherwise read as "unreachable, try again".
 */

import { DEFAULT_LANGUAGE, localizePath } from '@/lib/i18n/languages'
import type { Database } from '@/supabase/types.generated'
import { isLinkToken } from './token-shape'
import type { EarnedReward } from '@/sanity/rewards/ladder'

export type ConfirmAnswer = 'confirmed' | 'already_confirmed' | 'expired' | 'invalid'
/** 'unreachable': offline, refused or rate limited: the link itself may still be good. */
export type ConfirmResult = ConfirmAnswer | 'unreachable'
export type LinkRequestResult = 'sent' | 'rate_limited' | 'unreachable'

const ANSWERS = new Set<string>(['confirmed', 'already_confirmed', 'expired', 'invalid'])

/** The token from the confirm link's fragment (`#token=…`), or null. */
export function tokenFromHash(hash: string): string | null {
  const token = new URLSearchParams(hash.replace(/^#/, '')).get('token')
  return token ? token.trim() : null
}

type Backend = { url: string; anonKey: string }

type Functions = Database['public']['Functions']
/** A function's arguments as the generated types name them; null is sent as SQL null. */
type RpcArgs<Name extends keyof Functions> = { [Arg in keyof Functions[Name]['Args']]: Functions[Name]['Args'][Arg] | null }

async function rpc<Name extends keyof Functions>(backend: Backend, fn: Name, args: RpcArgs<Name>, fetchImpl: typeof fetch): Promise<Response> {
  return fetchImpl(`${backend.url.replace(/\/$/, '')}/rest/v1/rpc/${fn}`, {
    method: 'POST',
    headers: { apikey: backend.anonKey, 'Content-Type': 'application/json' },
    body: JSON.stringify(args),
    cache: 'no-store',
  })
}

/** `fetchImpl`: the load check confirms from many simulated clients. */
export async function confirmWaitlistLink(backend: Backend, token: string, fetchImpl: typeof fetch = fetch): Promise<ConfirmResult> {
  if (!isLinkToken(token)) return 'invalid'
  try {
    const response = await rpc(backend, 'waitlist_confirm', { token }, fetchImpl)
    if (!response.ok) return 'unreachable'
    const answer: unknown = await response.json()
    return typeof answer === 'string' && ANSWERS.has(answer) ? (answer as ConfirmAnswer) : 'unreachable'
  } catch {
    return 'unreachable'
  }
}

export async function requestWaitlistLink(backend: Backend, email: string): Promise<LinkRequestResult> {
  try {
    const response = await rpc(backend, 'waitlist_request_link', { email }, fetch)
    if (response.status === 429) return 'rate_limited'
    return response.ok ? 'sent' : 'unreachable'
  } catch {
    return 'unreachable'
  }
}

/** A confirmed person's place in line, as `waitlist_me` answers it. */
export type MyPlace = {
  status: 'confirmed'
  place: number | null
  confirmedTotal: number
  referrals: number
  referralCode: string
  placesPerReferral: number
  /** The rungs of the reward ladder the database recorded as theirs (supabase/schemas/18_rewards.sql). */
  rewards: EarnedReward[]
  /** The research tasks they answered, and the places those gave against the cap (supabase/schemas/19_tasks.sql). */
  tasks: MyTasks
  /** Their leaderboard choice and rank (supabase/schemas/20_leaderboard.sql). */
  board: BoardState
}

export type MyTasks = { done: { task: string; places: number; status: 'completed' | 'revoked' }[]; places: number; cap: number }
export type BoardState = { onBoard: boolean; name: string | null; initials: string; hidden: boolean; rank: number | null }
/**
 * What a link opens: a pending entry (the page asks for a press to confirm), an expired link, a
 * confirmed person's place; null when the token opens nothing (unknown, cut off, or long expired).
 */
export type LinkState =
  { status: 'pending' } | { status: 'expired' } | { status: 'invited'; invitationExpiresAt: string | null } | { status: 'joined' } | MyPlace
export type LinkStateResult = LinkState | null | 'unreachable'

function toLinkState(value: unknown): LinkState | undefined {
  if (!value || typeof value !== 'object') return undefined
  const me = value as Record<string, unknown>
  if (me.status === 'pending' || me.status === 'expired' || me.status === 'joined') return { status: me.status }
  if (me.status === 'invited') return { status: 'invited', invitationExpiresAt: typeof me.invitation_expires_at === 'string' ? me.invitation_expires_at : null }
  if (me.status !== 'confirmed' || typeof me.referral_code !== 'string' || typeof me.referrals !== 'number' || typeof me.confirmed_total !== 'number')
    return undefined
  return {
    status: 'confirmed',
    place: typeof me.place === 'number' ? me.place : null,
    confirmedTotal: me.confirmed_total,
    referrals: me.referrals,
    referralCode: me.referral_code,
    placesPerReferral: typeof me.places_per_referral === 'number' ? me.places_per_referral : 0,
    rewards: earnedRewards(me.rewards),
    tasks: myTasks(me.tasks),
    board: boardState(me.board) ?? { onBoard: false, name: null, initials: '', hidden: false, rank: null },
  }
}

function myTasks(value: unknown): MyTasks {
  const { done, places, cap } = (typeof value === 'object' && value !== null ? value : {}) as Record<string, unknown>
  return {
    done: (Array.isArray(done) ? done : []).flatMap((item: unknown) => {
      const { task, places, status } = (typeof item === 'object' && item !== null ? item : {}) as Record<string, unknown>
      return typeof task === 'string' && (status === 'completed' || status === 'revoked') ? [{ task, places: Number(places) || 0, status }] : []
    }),
    places: typeof places === 'number' ? places : 0,
    cap: typeof cap === 'number' ? cap : 0,
  }
}

function boardState(value: unknown): BoardState | undefined {
  if (!value || typeof value !== 'object') return undefined
  const board = value as Record<string, unknown>
  return {
    onBoard: board.on_board === true,
    name: typeof board.name === 'string' ? board.name : null,
    initials: typeof board.initials === 'string' ? board.initials : '',
    hidden: board.hidden === true,
    rank: typeof board.rank === 'number' ? board.rank : null,
  }
}

function earnedRewards(value: unknown): EarnedReward[] {
  if (!Array.isArray(value)) return []
  return value.flatMap((item: unknown) => {
    const { rung, status } = (typeof item === 'object' && item !== null ? item : {}) as Record<string, unknown>
    return typeof rung === 'string' && (status === 'granted' || status === 'held') ? [{ rung, status }] : []
  })
}

/** Reads what the link opens; changes nothing (a mail scanner that opens the page confirms nothing). */
export async function fetchLinkState(backend: Backend, token: string): Promise<LinkStateResult> {
  if (!isLinkToken(token)) return null
  try {
    const response = await rpc(backend, 'waitlist_me', { token }, fetch)
    if (!response.ok) return 'unreachable'
    const me: unknown = await response.json()
    if (me === null) return null
    return toLinkState(me) ?? 'unreachable'
  } catch {
    return 'unreachable'
  }
}

/** A fresh token for the holder's open invitation (the way into the app from their page); null when they have none. */
export async function fetchInvitationToken(backend: Backend, token: string): Promise<string | null | 'unreachable'> {
  if (!isLinkToken(token)) return null
  try {
    const response = await rpc(backend, 'waitlist_invitation_link', { token }, fetch)
    if (!response.ok) return 'unreachable'
    const answer: unknown = await response.json()
    return typeof answer === 'string' ? answer : null
  } catch {
    return 'unreachable'
  }
}

/** Everything stored about the token's holder, as the database exports it (JSON text). */
export async function exportMyData(backend: Backend, token: string): Promise<string | null | 'unreachable'> {
  if (!isLinkToken(token)) return null
  try {
    const response = await rpc(backend, 'waitlist_export_me', { token }, fetch)
    if (!response.ok) return 'unreachable'
    const data: unknown = await response.json()
    return data === null ? null : JSON.stringify(data, null, 2)
  } catch {
    return 'unreachable'
  }
}

/**
 * Whether the holder gets updates by e-mail (`wanted` null), or turns them on or off; null when the
 * token opens nothing that can have them (unknown, expired, or not yet confirmed).
 */
export async function myUpdates(backend: Backend, token: string, wanted: boolean | null): Promise<boolean | null | 'unreachable'> {
  if (!isLinkToken(token)) return null
  try {
    const response = await rpc(backend, 'waitlist_updates', { token, wanted }, fetch)
    if (!response.ok) return 'unreachable'
    const answer: unknown = await response.json()
    return typeof answer === 'boolean' ? answer : null
  } catch {
    return 'unreachable'
  }
}

/** A task's answer as the database took it (public.waitlist_complete_task), or why not. */
export type TaskResult =
  | { status: 'completed'; places: number; place: number | null }
  | { status: 'done' | 'closed' | 'unknown' }
  /** The database refused the answers (WLA01 to WLA05: the page was stale, or the rules were skirted). */
  | { status: 'refused'; code: string }
  | { status: 'gone' }
  | { status: 'unreachable' }

/** Sends a task's answers, once: a second send answers 'done'. */
export async function completeTask(backend: Backend, token: string, task: string, answers: Record<string, string | string[]>): Promise<TaskResult> {
  if (!isLinkToken(token)) return { status: 'gone' }
  try {
    const response = await rpc(backend, 'waitlist_complete_task', { token, task, answers }, fetch)
    if (response.status === 400) {
      const error = (await response.json().catch(() => ({}))) as { code?: unknown }
      return { status: 'refused', code: typeof error.code === 'string' ? error.code : '' }
    }
    if (!response.ok) return { status: 'unreachable' }
    const answer = (await response.json()) as Record<string, unknown> | null
    if (answer === null) return { status: 'gone' }
    if (answer.status === 'completed')
      return { status: 'completed', places: Number(answer.places) || 0, place: typeof answer.place === 'number' ? answer.place : null }
    return answer.status === 'done' || answer.status === 'closed' || answer.status === 'unknown' ? { status: answer.status } : { status: 'unreachable' }
  } catch {
    return { status: 'unreachable' }
  }
}

/** Joins the leaderboard (under `nickname`, or the initials when it is empty) or leaves it; 'refused' for a nickname that breaks the rule. */
export async function chooseBoard(
  backend: Backend,
  token: string,
  choice: 'join' | 'leave',
  nickname: string | null,
): Promise<BoardState | 'refused' | 'gone' | 'unreachable'> {
  if (!isLinkToken(token)) return 'gone'
  try {
    const response = await rpc(backend, 'waitlist_leaderboard_me', { token, choice, nickname }, fetch)
    if (response.status === 400) return 'refused'
    if (!response.ok) return 'unreachable'
    return boardState(await response.json()) ?? 'gone'
  } catch {
    return 'unreachable'
  }
}

/** 'deleted', or 'gone' when the token opens nothing (already deleted, or never valid). */
export async function deleteMe(backend: Backend, token: string): Promise<'deleted' | 'gone' | 'unreachable'> {
  if (!isLinkToken(token)) return 'gone'
  try {
    const response = await rpc(backend, 'waitlist_delete_me', { token }, fetch)
    if (!response.ok) return 'unreachable'
    return (await response.json()) === true ? 'deleted' : 'gone'
  } catch {
    return 'unreachable'
  }
}

/** The referral link a person shares: the waitlist page in their language with their public code. */
export function referralLink(origin: string, code: string, language: string = DEFAULT_LANGUAGE): string {
  const url = new URL(localizePath('/waitlist', language), origin)
  url.searchParams.set('ref', code)
  return url.toString()
}
