import { publicEnv } from '@/lib/env'
import { StudioSetup } from '@/components/studio/studio-setup'
import { Studio } from '@/components/studio/studio'

export { metadata, viewport } from 'next-sanity/studio'

export const dynamic = 'force-static'

export default function StudioPage() {
  // Without a project the Studio has nothing to edit: explain how to connect one instead.
  return publicEnv.sanityProjectId ? <Studio /> : <StudioSetup />
}
