import { publicEnv, serverEnv } from '@/lib/env'
import { StudioSetup } from '@/components/studio/studio-setup'
import type { Metadata } from 'next'
import { metadata as studioMetadata } from 'next-sanity/studio'
import { LazyStudio } from '@/components/studio/lazy-studio'

export { viewport } from 'next-sanity/studio'

// A page needs a title (the setup page is read by people and axe); the Studio sets its own once it runs.
export const metadata: Metadata = { ...studioMetadata, title: 'Studio' }

export const dynamic = 'force-static'

export default function StudioPage() {
  // Without a project the Studio has nothing to edit: explain how to connect one instead.
  // Whether Presentation can show drafts is the server's to know: the token never leaves it.
  return publicEnv.sanityProjectId ? <LazyStudio previews={Boolean(serverEnv().sanityReadToken)} /> : <StudioSetup />
}
