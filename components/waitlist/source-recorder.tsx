'use client'

import { useEffect } from 'react'
import { recordLanding } from '@/lib/waitlist/source'

/** On every page: remembers the visit's first page for a later sign-up (lib/waitlist/source.ts). */
export function SourceRecorder() {
  useEffect(() => recordLanding(), [])
  return null
}
