import type { NextConfig } from 'next'
import { publicEnv, serverEnv } from './lib/env'
import { securityHeaders } from './lib/security-headers'

// Bad configuration fails the build here, not a visitor's request (lib/env validates it all).
serverEnv()

const nextConfig: NextConfig = {
  // Tests and the local preview build side by side without clobbering each other.
  distDir: process.env.NEXT_DIST_DIR || '.next',
  poweredByHeader: false,
  // `npm test` type-checks the whole project with tsc before any build; checking again in
  // each of the three test builds would cost a minute on two cores and prove nothing new.
  typescript: { ignoreBuildErrors: true },
  reactStrictMode: true,
  experimental: {
    // app/global-not-found.tsx: see components/site/site-document.tsx.
    globalNotFound: true,
    // The stylesheet goes into the HTML instead of a render-blocking request, so the first words
    // paint as soon as the HTML arrives, without a second round trip on a slow phone network and
    // before the async scripts have landed (docs/bench.md). The cost: about 7.6 kB gzipped more
    // HTML per page, since Next also carries it in the page's RSC data, and no stylesheet cached
    // across pages. CSP: `style-src` already allows inline styles (lib/security-headers.ts).
    inlineCss: true,
    // Every address no route owns reaches the pages route, and Next caches each answer, 404s
    // included (about 140 kB each): on disk, anyone requesting random addresses could fill it.
    // Kept in memory instead, under Next's LRU bound (`cacheMaxMemorySize`, 50 MB); pages
    // prerendered at build stay on disk. e2e/page-builder.spec.ts requests random addresses.
    isrFlushToDisk: false,
    // Visitors of a marketing site mostly land on one page and leave: weigh that first load over
    // caching across pages, so Turbopack makes a few larger chunks (about 1.7 kB less gzipped
    // JavaScript per page than its defaults, docs/bench.md) rather than many small ones.
    turbopackChunking: {
      firstPageLoadPriority: 1,
      requestCost: 2_000_000,
      minChunkSize: 150_000,
    },
  },
  images: { remotePatterns: [{ protocol: 'https', hostname: 'cdn.sanity.io' }] },
  // PostHog's API paths end in a slash; a redirect would break them (app/ingest forwards them).
  skipTrailingSlashRedirect: true,
  async headers() {
    return securityHeaders({
      supabaseUrl: publicEnv.supabaseUrl,
      siteUrl: publicEnv.siteUrl,
      productWidgetOrigin: publicEnv.productWidgetOrigin,
    })
  },
}

export default nextConfig
