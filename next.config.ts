import path from 'node:path'
import type { NextConfig } from 'next'
import { publicEnv, serverEnv } from './lib/env'
import { securityHeaders } from './lib/security-headers'
import { SHARE_IMAGE_FILES } from './components/seo/share-image-assets'
import { skippedHeaders, skippedRewrites } from './lib/http/proxy-skip'

// Bad configuration fails the build here, not a visitor's request (lib/env validates it all).
// `next start` reads this file again, so REDIS_URL is checked, and takes effect, at start too.
const { redisUrl } = serverEnv()

const nextConfig: NextConfig = {
  // Tests and the local preview build side by side without clobbering each other.
  distDir: process.env.NEXT_DIST_DIR || '.next',
  // The Dockerfile's build: a server.js with only the node_modules it needs. Vercel and `next start` need none.
  ...(process.env.NEXT_OUTPUT === 'standalone' && { output: 'standalone' as const }),
  poweredByHeader: false,
  // `npm test` type-checks the whole project with tsc before any build; checking again in
  // each of the two test builds would cost a minute on two cores and prove nothing new.
  typescript: { ignoreBuildErrors: true },
  reactStrictMode: true,
  // Several instances share their pages, data and tags in Redis (lib/cache/cache-handler.mjs,
  // docs/engineers.md "Several instances"). Without REDIS_URL, Next's own cache, as one server needs.
  ...(redisUrl && { cacheHandler: path.resolve('lib/cache/cache-handler.mjs'), cacheMaxMemorySize: 0 }),
  experimental: {
    // app/global-not-found.tsx: see components/site/site-document.tsx.
    globalNotFound: true,
    // Turbopack keeps a cache of the build in <distDir>/cache for the next build to start from.
    // A clean clone's end-to-end builds (CI) are never built again, and writing the cache adds to
    // each of them: tools/test/e2e.ts sets NEXT_BUILD_CACHE=off there. Every other build keeps it.
    turbopackFileSystemCacheForBuild: process.env.NEXT_BUILD_CACHE !== 'off',
    // Next buffers the body of every request proxy.ts matches (10 MB by default) before the proxy
    // runs. The addresses it matches are pages, which take no body: a POST of any size to one is
    // held to this much, so many of them at once cannot fill the server's memory
    // (e2e/request-bodies.spec.ts).
    proxyClientMaxBodySize: '16kb',
    // The stylesheet goes into the HTML instead of a render-blocking request, so the first words
    // paint as soon as the HTML arrives, without a second round trip on a slow phone network and
    // before the async scripts have landed (docs/bench.md). Next would also write it a second
    // time into the page's RSC data (8.4 kB gzipped per page, vercel/next.js#98079):
    // patches/next-inline-css (run by `npm install`) sends it once. The cost left: no stylesheet
    // cached across pages. CSP: `style-src` already allows inline styles (lib/security-headers.ts).
    inlineCss: true,
    // Pages published after the build are rendered and cached on their first request: kept in
    // memory, under Next's LRU bound (`cacheMaxMemorySize`, 50 MB), so that whatever reaches the
    // pages route cannot fill the disk; pages prerendered at build stay on disk. Random addresses
    // never get that far (proxy.ts answers them all with the one cached 404), and
    // e2e/page-builder.spec.ts checks they leave nothing behind.
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
  // The fonts and emoji the share images are drawn with, read from node_modules at run time.
  outputFileTracingIncludes: { '/og/**': SHARE_IMAGE_FILES },
  images: { remotePatterns: [{ protocol: 'https', hostname: 'cdn.sanity.io' }] },
  // PostHog's API paths end in a slash; a redirect would break them (app/ingest forwards them).
  skipTrailingSlashRedirect: true,
  async headers() {
    return [
      ...securityHeaders({
        supabaseUrl: publicEnv.supabaseUrl,
        siteUrl: publicEnv.siteUrl,
        productWidgetOrigin: publicEnv.productWidgetOrigin,
      }),
      // What the proxy would have said a shared cache keys on, for the requests it does not run for.
      ...skippedHeaders(),
    ]
  },
  // English's fixed pages reach their route under /en/… without the proxy (lib/http/proxy-skip.ts).
  async rewrites() {
    return { beforeFiles: skippedRewrites(), afterFiles: [], fallback: [] }
  },
}

export default nextConfig
