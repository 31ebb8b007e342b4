/**
 * Minimal HS256 JWT signing and verification with node:crypto, enough for the
 * local PostgREST double to treat keys the way Supabase's gateway and
 * PostgREST do (signature, algorithm, expiry, role claim).
 */
import { createHmac, timingSafeEqual } from 'node:crypto'

export type JwtClaims = Record<string, unknown>

export type JwtVerification =
  | { ok: true; claims: JwtClaims }
  // `message` mirrors PostgREST's wording so error bodies look like the real thing.
  | { ok: false; reason: 'malformed' | 'algorithm' | 'signature' | 'expired'; message: string }

function base64url(input: Buffer | string): string {
  return Buffer.from(input).toString('base64url')
}

function hmac(data: string, secret: string): Buffer {
  return createHmac('sha256', secret).update(data).digest()
}

export function signJwt(payload: JwtClaims, secret: string): string {
  // Key order matters for byte-identical tokens: Supabase's demo keys use exactly this header.
  const header = base64url(JSON.stringify({ alg: 'HS256', typ: 'JWT' }))
  const body = base64url(JSON.stringify(payload))
  return `${header}.${body}.${base64url(hmac(`${header}.${body}`, secret))}`
}

function parseJsonSegment(segment: string): unknown {
  try {
    return JSON.parse(Buffer.from(segment, 'base64url').toString('utf8'))
  } catch {
    return undefined
  }
}

function isObject(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value)
}

export function verifyJwt(token: string, secret: string, nowSeconds = Date.now() / 1000): JwtVerification {
  const parts = token.split('.')
  if (parts.length !== 3) {
    return { ok: false, reason: 'malformed', message: `Expected 3 parts in JWT; got ${parts.length}` }
  }
  const [headerPart, payloadPart, signaturePart] = parts as [string, string, string]
  const header = parseJsonSegment(headerPart)
  const claims = parseJsonSegment(payloadPart)
  if (!isObject(header) || !isObject(claims)) {
    return { ok: false, reason: 'malformed', message: "JWT couldn't be decoded" }
  }
  // Refusing anything but HS256 closes the classic "alg: none" hole.
  if (header.alg !== 'HS256') {
    return { ok: false, reason: 'algorithm', message: 'Wrong or unsupported encoding algorithm' }
  }
  const expected = hmac(`${headerPart}.${payloadPart}`, secret)
  const given = Buffer.from(signaturePart, 'base64url')
  if (given.length !== expected.length || !timingSafeEqual(given, expected)) {
    return { ok: false, reason: 'signature', message: 'JWT cryptographic operation failed' }
  }
  if (claims.exp !== undefined && (typeof claims.exp !== 'number' || claims.exp <= nowSeconds)) {
    return { ok: false, reason: 'expired', message: 'JWT expired' }
  }
  return { ok: true, claims }
}
