import type { NextConfig } from 'next'

const nextConfig: NextConfig = {
  // Tests and the local preview build side by side without clobbering each other.
  distDir: process.env.NEXT_DIST_DIR || '.next',
  poweredByHeader: false,
  reactStrictMode: true,
  images: { remotePatterns: [{ protocol: 'https', hostname: 'cdn.sanity.io' }] },
}

export default nextConfig
