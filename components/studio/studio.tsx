'use client'

// First: before any module below parses with zod.
import './zod-jitless'
import { useMemo } from 'react'
// Without the auto-update bridge script that next-sanity/studio's NextStudio adds (lib/security-headers.ts).
import { NextStudio } from 'next-sanity/studio/client-component'
import { studioConfig } from '@/sanity.config'

/** `previews`: whether the site has a read token for drafts (read on the server by the Studio page). */
export function Studio({ previews }: { previews: boolean }) {
  const config = useMemo(() => studioConfig({ previews }), [previews])
  return <NextStudio config={config} />
}
