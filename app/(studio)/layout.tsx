import type { ReactNode } from 'react'
import { SiteDocument } from '@/components/site/site-document'
import '../globals.css'

/** The Studio fills the window: no site header or footer around it. */
export default function StudioLayout({ children }: { children: ReactNode }) {
  return <SiteDocument>{children}</SiteDocument>
}
