import 'server-only'
import { serverEnv } from '@/lib/env'
import { hasBearerSecret } from '@/lib/http/bearer'
import { readBodyCapped } from '@/lib/http/body'
import { configuredServiceClient } from '@/lib/supabase/configured'
import { isLinkToken } from './token-shape'

/** What public.waitlist_redeem_invitation() answers. */
export type Redemption =
  | { name: string; email: string; company: string; founding_member: boolean; invited_at: string; joined_at: string; language: string }
  | { error: 'unknown' | 'used' | 'expired' }
export type Redeem = (token: string) => Promise<Redemption | 'unavailable'>

const redeemWithServiceKey: Redeem = async (token) => {
  const client = configuredServiceClient()
  if (!client) return 'unavailable'
  const { data, error } = await client.rpc('waitlist_redeem_invitation', { token })
  return error || !data ? 'unavailable' : (data as Redemption)
}

const json = (body: unknown, status: number) => Response.json(body, { status, headers: { 'cache-control': 'no-store' } })

/** Unknown: nothing to do. Used or expired: it existed, and is no longer good. */
const REFUSALS = { unknown: 404, used: 410, expired: 410 } as const

/**
 * POST /api/invitations/redeem, for the product's app: the secret first (constant time, before a
 * byte of the body is read), then `{"token": "…"}` (4 kB at most). A live token answers who it is and
 * makes them 'joined'; any other answers only why not, naming nobody.
 */
export async function redeemInvitation(request: Request, redeem: Redeem = redeemWithServiceKey): Promise<Response> {
  if (!hasBearerSecret(request.headers.get('authorization'), serverEnv().invitationRedeemSecret)) return json({ error: 'unauthorized' }, 401)
  const body = await readBodyCapped(request, 4096)
  if (!body.ok) return json({ error: 'body_too_large' }, 413)
  let token: unknown
  try {
    token = (JSON.parse(new TextDecoder().decode(body.bytes)) as { token?: unknown } | null)?.token
  } catch {
    token = undefined
  }
  if (typeof token !== 'string') return json({ error: 'bad_request', message: 'Send {"token": "<the invitation token>"} as JSON.' }, 400)
  // A string of a shape no invitation has can never redeem: said now, not as 503 "try again" when
  // the database refuses its bytes (Postgres text holds no NUL).
  if (!isLinkToken(token)) return json({ error: 'invitation_invalid' }, 400)
  const answer = await redeem(token)
  if (answer === 'unavailable') return json({ error: 'unavailable' }, 503)
  if ('error' in answer) return json({ error: `invitation_${answer.error}` }, REFUSALS[answer.error])
  return json(
    {
      name: answer.name,
      email: answer.email,
      company: answer.company,
      foundingMember: answer.founding_member,
      invitedAt: answer.invited_at,
      joinedAt: answer.joined_at,
      language: answer.language,
    },
    200,
  )
}
