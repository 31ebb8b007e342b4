import { proxyToPostHog } from '@/components/analytics/ingest-proxy'

// Every call is forwarded as it comes: nothing to prerender or cache.
export const dynamic = 'force-dynamic'

export const GET = (request: Request) => proxyToPostHog(request)
export const POST = (request: Request) => proxyToPostHog(request)
