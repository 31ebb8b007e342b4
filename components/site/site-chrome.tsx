import type { ReactNode } from 'react'
import { getSiteSettings } from '@/lib/content'
import { Footer } from './footer'
import { Header } from './header'
import { Analytics } from '@/components/analytics/analytics'

/** Header, skip link and footer around a page: shared by the site's routes and the 404. */
export async function SiteChrome({ children }: { children: ReactNode }) {
  const settings = await getSiteSettings()
  return (
    <>
      <a href="#main" className="sr-only focus:not-sr-only focus:fixed focus:left-4 focus:top-4 focus:z-50 focus:rounded-md focus:bg-white focus:px-4 focus:py-2 focus:shadow">
        {settings.labels.skipToContent}
      </a>
      <Header settings={settings} />
      <main id="main" tabIndex={-1} className="focus:outline-none">
        {children}
      </main>
      <Footer settings={settings} />
      <Analytics copy={settings.consent} />
    </>
  )
}
