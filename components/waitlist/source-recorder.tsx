'use client'

import { useEffect } from 'react'
import { recordLanding } from '@/components/waitlist/source'
import { whenShown } from '@/lib/prerender'

/**
 * On every page: remembers the visit's first page for a later sign-up (components/waitlist/source.ts),
 * once the page is shown: a prerendered page the visitor never opens was not part of the visit.
 */
export function SourceRecorder() {
  useEffect(() => whenShown(recordLanding), [])
  return null
}
