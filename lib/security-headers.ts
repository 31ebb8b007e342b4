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
export function siteContentSecurityPolicy({ supabaseUrl, https, productWidgetOrigin }: { supabaseUrl?: string; https: boolean; productWidgetOrigin?: string }): string {
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

export function studioContentSecurityPolicy(): string {
  return policy({
    'default-src': ["'self'"],
    'script-src': ["'self'", "'unsafe-inline'"],
    'style-src': ["'self'", "'unsafe-inline'"],
    'img-src': ["'self'", 'data:', 'blob:', 'https://cdn.sanity.io', 'https://*.sanity.io', 'https://lh3.googleusercontent.com', 'https://avatars.githubusercontent.com'],
    'font-src': ["'self'", 'data:'],
    'connect-src': ["'self'", 'https://*.sanity.io', 'wss://*.sanity.io', 'https://*.sanity.work'],
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
      headers: [{ key: 'Content-Security-Policy', value: siteContentSecurityPolicy({ supabaseUrl: env.supabaseUrl, https, productWidgetOrigin: env.productWidgetOrigin }) }],
    },
    {
      source: '/studio/:path*',
      headers: [{ key: 'Content-Security-Policy', value: studioContentSecurityPolicy() }],
    },
  ]
}
