'use client'

import { useEffect, useState, type ComponentType } from 'react'

/**
 * next-sanity's click-to-edit overlays, fetched when a draft is being previewed. Imported
 * statically, even behind the draft-mode check, their client code and next/dynamic's landed
 * in every published page's first-load JavaScript (about 2.5 kB gzipped).
 */
export function LazyVisualEditing() {
  const [VisualEditing, setVisualEditing] = useState<ComponentType | null>(null)
  useEffect(() => {
    void import('next-sanity/visual-editing').then((module) => setVisualEditing(() => module.VisualEditing))
  }, [])
  return VisualEditing ? <VisualEditing /> : null
}
