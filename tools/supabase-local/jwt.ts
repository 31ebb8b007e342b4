/**
 * HS256 JWT signing and verification with jose, for the local PostgREST double to treat keys the
 * way Supabase's gateway and PostgREST do (signature, algorithm, expiry, role claim), with
 * PostgREST's words for each refusal.
 */
import { errors, jwtVerify, SignJWT, type JWTPayload } from 'jose'

export type JwtClaims = Record<string, unknown>

export type JwtVerification =
  | { ok: true; claims: JwtClaims }
  // `message` mirrors PostgREST's wording so error bodies look like the real thing.
  | { ok: false; reason: 'malformed' | 'algorithm' | 'signature' | 'expired'; message: string }

const keyOf = (secret: string) => new TextEncoder().encode(secret)

export function signJwt(payload: JwtClaims, secret: string): Promise<string> {
  // This header, in this order: Supabase's demo keys are exactly these bytes (./keys.ts).
  return new SignJWT(payload as JWTPayload).setProtectedHeader({ alg: 'HS256', typ: 'JWT' }).sign(keyOf(secret))
}

export async function verifyJwt(token: string, secret: string, nowSeconds = Date.now() / 1000): Promise<JwtVerification> {
  const parts = token.split('.').length
  if (parts !== 3) return { ok: false, reason: 'malformed', message: `Expected 3 parts in JWT; got ${parts}` }
  try {
    // Only HS256: closes the classic "alg: none" hole.
    const { payload } = await jwtVerify(token, keyOf(secret), { algorithms: ['HS256'], currentDate: new Date(nowSeconds * 1000) })
    return { ok: true, claims: payload as JwtClaims }
  } catch (error) {
    if (error instanceof errors.JOSEAlgNotAllowed) return { ok: false, reason: 'algorithm', message: 'Wrong or unsupported encoding algorithm' }
    if (error instanceof errors.JWSSignatureVerificationFailed) return { ok: false, reason: 'signature', message: 'JWT cryptographic operation failed' }
    // An exp that is not a number expires nothing PostgREST can trust: it says so, as for a past one.
    if (error instanceof errors.JWTExpired || (error instanceof errors.JWTClaimValidationFailed && error.claim === 'exp'))
      return { ok: false, reason: 'expired', message: 'JWT expired' }
    return { ok: false, reason: 'malformed', message: "JWT couldn't be decoded" }
  }
}
