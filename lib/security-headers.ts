/**
 * The security headers of every response, built from configuration at build time.
 * The site's policy allows only what the site uses: itself (pages, fonts, and the
 * analytics proxy at /ingest), Sanity's image CDN, and the Supabase project the waitlist
 * form writes to. The Studio gets its own policy that lets it reach Sanity.
 *
 * Scripts allow 'unsafe-inline' because static pages carry Next's inline bootstrap
 * scripts, and a per-request nonce would make every page dynamic; external script
 * origins are still refused.
 */
export type Header = { key: string; value: string }

const policy = (directives: Record<string, string[]>) =>
  Object.entries(directives)
    .map(([name, values]) => [name, ...values].join(' '))
    .join('; ')

const origin = (url: string | undefined) => {
  if (!url) return []
  try {
    return [new URL(url).origin]
  } catch {
    return []
  }
}

/**
 * `productWidgetOrigin` is where the product's own widget snippet comes from (Site settings
 * → Demo widget). The policy is fixed at build time while the snippet's address lives in
 * content, so the deployment names the origin it trusts in PRODUCT_WIDGET_ORIGIN.
 */
export function siteContentSecurityPolicy({
  supabaseUrl,
  https,
  productWidgetOrigin,
}: {
  supabaseUrl?: string
  https: boolean
  productWidgetOrigin?: string
}): string {
  const widget = origin(productWidgetOrigin)
  return policy({
    'default-src': ["'self'"],
    'script-src': ["'self'", "'unsafe-inline'", ...widget],
    'style-src': ["'self'", "'unsafe-inline'", ...widget],
    'img-src': ["'self'", 'data:', 'blob:', 'https://cdn.sanity.io', ...widget],
    'font-src': ["'self'", ...widget],
    'connect-src': ["'self'", ...origin(supabaseUrl), ...widget],
    'frame-src': ["'self'", ...widget],
    'object-src': ["'none'"],
    'base-uri': ["'self'"],
    'form-action': ["'self'"],
    // The Studio's Presentation tool shows the site in a frame of the same origin.
    'frame-ancestors': ["'self'"],
    ...(https ? { 'upgrade-insecure-requests': [] } : {}),
  })
}

/**
 * Exactly what the embedded Studio (sanity 6.9.2) asks for, and no more:
 * - Sanity's API and its listen streams at `*.sanity.io`, and images and avatars.
 * - `font-src https://design-system-static.sanity.io`: the Studio's stylesheet (@sanity-labs/ui-poc)
 *   loads its Inter fonts from there; refused, the Studio falls back to system fonts and logs errors.
 * - `connect-src https://sanity-cdn.com`: the Studio asks that module CDN for the newest version of
 *   `sanity` on every load and every 15 minutes (to say "update available"). Nothing in its config
 *   turns that off, and it is a JSON read that runs no code, so it is allowed.
 * - No `https://core.sanity-cdn.com`: that is the auto-update bridge script, which next-sanity's
 *   default `NextStudio` adds. This Studio is built from the versions package-lock.json pins, and a
 *   script fetched unpinned from a CDN would run with every editor's session, so
 *   components/studio/studio.tsx uses the `NextStudio` without it and scripts stay our own.
 * - No `*.sanity.work`: that is Sanity's staging, which only Sanity's own staging builds call.
 */
export function studioContentSecurityPolicy(): string {
  return policy({
    'default-src': ["'self'"],
    'script-src': ["'self'", "'unsafe-inline'"],
    'style-src': ["'self'", "'unsafe-inline'"],
    'img-src': [
      "'self'",
      'data:',
      'blob:',
      'https://cdn.sanity.io',
      'https://*.sanity.io',
      'https://lh3.googleusercontent.com',
      'https://avatars.githubusercontent.com',
    ],
    'font-src': ["'self'", 'data:', 'https://design-system-static.sanity.io'],
    'connect-src': ["'self'", 'https://*.sanity.io', 'wss://*.sanity.io', 'https://sanity-cdn.com'],
    'frame-src': ["'self'"],
    'worker-src': ["'self'", 'blob:'],
    'object-src': ["'none'"],
    'base-uri': ["'self'"],
    'frame-ancestors': ["'none'"],
  })
}

export function commonSecurityHeaders(): Header[] {
  return [
    { key: 'Strict-Transport-Security', value: 'max-age=63072000; includeSubDomains; preload' },
    { key: 'X-Content-Type-Options', value: 'nosniff' },
    { key: 'Referrer-Policy', value: 'strict-origin-when-cross-origin' },
    { key: 'Permissions-Policy', value: 'camera=(), microphone=(), geolocation=(), payment=(), usb=(), browsing-topics=()' },
  ]
}

/** next.config `headers()`: the Studio's policy on /studio, the site's everywhere else (the 404 included). */
export function securityHeaders(env: { supabaseUrl?: string; siteUrl?: string; productWidgetOrigin?: string }) {
  const https = (env.siteUrl ?? '').startsWith('https://')
  return [
    {
      source: '/:path*',
      headers: commonSecurityHeaders(),
    },
    {
      source: '/((?!studio(?:/|$)).*)',
      headers: [
        {
          key: 'Content-Security-Policy',
          value: siteContentSecurityPolicy({ supabaseUrl: env.supabaseUrl, https, productWidgetOrigin: env.productWidgetOrigin }),
        },
      ],
    },
    {
      source: '/studio/:path*',
      headers: [{ key: 'Content-Security-Policy', value: studioContentSecurityPolicy() }],
    },
  ]
}
