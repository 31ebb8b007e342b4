'use client'

import { useEffect } from 'react'
import { recordLanding } from '@/components/waitlist/source'

/** On every page: remembers the visit's first page for a later sign-up (components/waitlist/source.ts). */
export function SourceRecorder() {
  useEffect(() => recordLanding(), [])
  return null
}
