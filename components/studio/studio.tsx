'use client'

import { useMemo } from 'react'
import { NextStudio } from 'next-sanity/studio'
import { studioConfig } from '@/sanity.config'

/** `previews`: whether the site has a read token for drafts (read on the server by the Studio page). */
export function Studio({ previews }: { previews: boolean }) {
  const config = useMemo(() => studioConfig({ previews }), [previews])
  return <NextStudio config={config} />
}
