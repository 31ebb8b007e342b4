import { publicEnv, serverEnv } from '@/lib/env'
import { StudioSetup } from '@/components/studio/studio-setup'
import { Studio } from '@/components/studio/studio'

export { metadata, viewport } from 'next-sanity/studio'

export const dynamic = 'force-static'

export default function StudioPage() {
  // Without a project the Studio has nothing to edit: explain how to connect one instead.
  // Whether Presentation can show drafts is the server's to know: the token never leaves it.
  return publicEnv.sanityProjectId ? <Studio previews={Boolean(serverEnv().sanityReadToken)} /> : <StudioSetup />
}
