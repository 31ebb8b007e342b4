/** Where pages send analytics: our own origin, forwarded to PostHog's EU cloud by app/ingest (./ingest-proxy.ts). */
export const ANALYTICS_PROXY_PATH = '/ingest'
