/**
 * Who may talk to the console. It listens on 127.0.0.1 only, but that alone does not keep web pages
 * out: any page the owner has open can make the browser send requests to 127.0.0.1, and a page on
 * a hostile domain whose DNS answer is changed to 127.0.0.1 (DNS rebinding) even reads the answers,
 * as its own origin. What such a request cannot fake is the browser's own headers: `Host` names the
 * hostile domain, and `Origin` (sent with every POST and every cross-origin fetch) names the hostile
 * page. So the console answers only a Host that is itself, refuses any Origin that is not itself,
 * and wants an Origin on every action. Then the per-run token, which only the printed address
 * carries, keeps out anyone else on this machine (another user, a program with a port scanner).
 */
import { createHash, timingSafeEqual } from 'node:crypto'
import type { IncomingMessage } from 'node:http'

export type Refusal = { status: number; message: string }

/** The console's own origins: what its Host and Origin headers may say. */
export function ownOrigins(port: number): string[] {
  return [`http://127.0.0.1:${port}`, `http://localhost:${port}`]
}

/** Every value of a header as sent, repeated lines included (Node keeps only one Host in `headers`). */
function headerValues(request: IncomingMessage, name: string): string[] {
  const values: string[] = []
  for (let index = 0; index < request.rawHeaders.length; index += 2) {
    if (request.rawHeaders[index]!.toLowerCase() === name) values.push(request.rawHeaders[index + 1]!)
  }
  return values
}

/** Why a request is refused before anything is read or shown, or null when it may go on to the token check. */
export function refusal(request: IncomingMessage, port: number): Refusal | null {
  const origins = ownOrigins(port)
  // An absolute request target (`GET http://evil.example/ HTTP/1.1`) names a host of its own.
  if (!request.url?.startsWith('/')) return { status: 400, message: 'Bad request target.' }
  const hosts = headerValues(request, 'host')
  if (hosts.length !== 1 || !origins.includes(`http://${hosts[0]!.toLowerCase()}`)) {
    return { status: 421, message: `This console answers only as 127.0.0.1:${port} or localhost:${port}.` }
  }
  const sentOrigins = headerValues(request, 'origin')
  if (sentOrigins.length > 1 || (sentOrigins.length === 1 && !origins.includes(sentOrigins[0]!))) {
    return { status: 403, message: 'Refused: this request comes from another web page.' }
  }
  // Browsers send Origin with every POST; an action without one did not come from the console's page.
  if (request.method !== 'GET' && sentOrigins.length === 0) {
    return { status: 403, message: 'Refused: an action needs the Origin header of the console page.' }
  }
  return null
}

/** The per-run token compared in constant time (both sides hashed first, so their lengths do not matter). */
export function sameToken(given: string | null | undefined, token: string): boolean {
  if (!given) return false
  const digest = (value: string) => createHash('sha256').update(value, 'utf8').digest()
  return timingSafeEqual(digest(given), digest(token))
}
