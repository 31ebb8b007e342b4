import type { Metadata } from 'next'
import { DEFAULT_LANGUAGE } from '@/lib/i18n/languages'
import { notFoundMetadata } from '@/components/seo/metadata'
import { NotFoundView } from '@/components/site/not-found-view'
import { SiteChrome } from '@/components/site/site-chrome'
import { SiteDocument } from '@/components/site/site-document'
import './globals.css'

// Every URL no route matches (experimental.globalNotFound); see components/site/site-document.tsx.
// Unknown page slugs reach app/(site)/[lang]/[...slug] instead, which shows the same NotFoundView.
export function generateMetadata(): Promise<Metadata> {
  return notFoundMetadata()
}

export default function GlobalNotFound() {
  return (
    <SiteDocument>
      <SiteChrome language={DEFAULT_LANGUAGE}>
        <NotFoundView />
      </SiteChrome>
    </SiteDocument>
  )
}
