import type { ReactNode } from 'react'
import { SiteChrome } from '@/components/site/site-chrome'
import { SiteDocument } from '@/components/site/site-document'
import '../globals.css'

export default function SiteLayout({ children }: { children: ReactNode }) {
  return (
    <SiteDocument>
      <SiteChrome>{children}</SiteChrome>
    </SiteDocument>
  )
}
