'use client'

import { usePathname } from 'next/navigation'
import { useEffect } from 'react'

/** Leaves the missing path in the console, where a developer following a broken link looks. */
export function NotFoundLogger() {
  const pathname = usePathname()
  useEffect(() => {
    console.error('404 Error: User attempted to access non-existent route:', pathname)
  }, [pathname])
  return null
}
