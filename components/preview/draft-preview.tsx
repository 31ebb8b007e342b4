import { draftMode } from 'next/headers'
import { draftClient } from '@/sanity/content/fetch'
import { LazyVisualEditing } from './lazy-visual-editing'

/**
 * Click-to-edit overlays and a way out, only in draft mode; the published site renders
 * nothing here and loads none of this code.
 */
export async function DraftPreview() {
  if (!draftClient() || !(await draftMode()).isEnabled) return null
  return (
    <>
      <LazyVisualEditing />
      <a href="/api/draft-mode/disable" className="fixed left-4 top-20 z-50 rounded-full bg-amber-400 px-4 py-2 text-sm font-semibold text-slate-900 shadow-lg">
        Draft preview: leave
      </a>
    </>
  )
}
