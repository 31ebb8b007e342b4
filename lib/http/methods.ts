/**
 * Which HTTP methods each address answers to, for the 405s that name them (`Allow`, as RFC 9110
 * requires): a page, a feed, a share image or a static file is only read; an API route takes what its
 * file exports (Next adds HEAD to a GET and answers OPTIONS itself). tests/unit/http-methods.test.ts
 * checks this list against the route files.
 */
const READ = ['GET', 'HEAD'] as const

const ROUTES: [RegExp, readonly string[]][] = [
  [/^\/api\/invitations\/redeem\/?$/, ['OPTIONS', 'POST']],
  [/^\/api\/unsubscribe\/?$/, ['GET', 'HEAD', 'OPTIONS', 'POST']],
  [/^\/api\/outbox\/dispatch\/?$/, ['GET', 'HEAD', 'OPTIONS', 'POST']],
  [/^\/api\/revalidate\/?$/, ['OPTIONS', 'POST']],
  [/^\/api\/mail-events\/[^/]+\/?$/, ['OPTIONS', 'POST']],
  [/^\/api\/draft-mode\/(?:enable|disable)\/?$/, ['GET', 'HEAD', 'OPTIONS']],
  [/^\/api\/language\/[^/]+\/?$/, ['GET', 'HEAD', 'OPTIONS']],
  [/^\/ingest\/./, ['GET', 'HEAD', 'OPTIONS', 'POST']],
]

/** The methods `pathname` answers to. */
export function allowedMethods(pathname: string): readonly string[] {
  return ROUTES.find(([pattern]) => pattern.test(pathname))?.[1] ?? READ
}

/**
 * Methods a fetch `Request` cannot carry (undici refuses to make one): Next turns each into a 500
 * and a stack trace in the log, for every page and route, before any code of ours runs.
 */
const UNREPRESENTABLE = new Set(['CONNECT', 'TRACE', 'TRACK'])

/**
 * The `Allow` list when `method` must be refused at `pathname`, else null. Next's own addresses
 * (`/_next/…`, and the development server's `/__nextjs…`) keep their own rules, less the methods
 * Next cannot take at all.
 */
export function refusedMethod(method: string, pathname: string): readonly string[] | null {
  const allowed = allowedMethods(pathname)
  if (UNREPRESENTABLE.has(method)) return allowed
  if (pathname.startsWith('/_next/') || pathname.startsWith('/__nextjs')) return null
  return allowed.includes(method) ? null : allowed
}

/** 405 naming what the address does take. */
export function methodNotAllowed(allowed: readonly string[]): Response {
  return new Response(null, { status: 405, headers: { allow: allowed.join(', '), 'cache-control': 'no-store' } })
}
