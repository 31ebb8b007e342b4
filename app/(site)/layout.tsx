import type { Metadata } from 'next'
import type { ReactNode } from 'react'
import { feedAlternates } from '@/lib/metadata'
import { SiteChrome } from '@/components/site/site-chrome'
import { SiteDocument } from '@/components/site/site-document'
import '../globals.css'

/** Pages with metadata of their own name the feeds too (lib/metadata.ts): the head of every page links them. */
export async function generateMetadata(): Promise<Metadata> {
  return { alternates: { types: await feedAlternates() } }
}

export default function SiteLayout({ children }: { children: ReactNode }) {
  return (
    <SiteDocument>
      <SiteChrome>{children}</SiteChrome>
    </SiteDocument>
  )
}
