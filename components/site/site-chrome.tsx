import type { ReactNode } from 'react'
import { getDemoConversation, getSiteLanguages, getSiteSettings } from '@/sanity/content'
import { languageTag } from '@/lib/i18n/languages'
import { DemoWidgetHost } from '@/components/demo/demo-widget-host'
import { Footer } from './footer'
import { Header } from './header'
import { AnnouncementBar } from './announcement/announcement-bar'
import { Analytics } from '@/components/analytics/analytics'
import { ConsentBoot } from '@/components/analytics/consent-boot'
import { consentButtonLooks } from '@/components/analytics/consent-buttons'
import { publicEnv } from '@/lib/env'
import { DraftPreview } from '@/components/preview/draft-preview'
import { SourceRecorder } from '@/components/waitlist/source-recorder'
import { SpeculationRules } from './speculation-rules'

/** Header, skip link and footer around a page: shared by the site's routes and the 404. */
export async function SiteChrome({ children, language }: { children: ReactNode; language: string }) {
  const [settings, demo, languages] = await Promise.all([getSiteSettings(language), getDemoConversation(language), getSiteLanguages()])
  return (
    <>
      <a
        href="#main"
        className="sr-only focus:not-sr-only focus:fixed focus:left-4 focus:top-4 focus:z-50 focus:rounded-md focus:bg-white focus:px-4 focus:py-2 focus:shadow"
      >
        {settings.labels.skipToContent}
      </a>
      {/* The consent question comes first after the skip link: a keyboard or screen-reader visitor
          meets what covers the bottom of the screen before the page, not after the footer, and
          the banner paints with the first words instead of arriving last with the HTML (where it
          is the largest text, as on the legal pages, it is the LCP element). The boot script goes
          before it, so a visitor who has chosen never sees it flash. */}
      {publicEnv.posthogKey ? <ConsentBoot /> : null}
      <Analytics copy={settings.consent} looks={consentButtonLooks} locale={languageTag(language)} />
      <AnnouncementBar announcement={settings.announcement} closeLabel={settings.labels.closeAnnouncement} plannedLabel={settings.labels.planned} />
      <Header settings={settings} />
      <main id="main" tabIndex={-1} className="focus:outline-none">
        {children}
      </main>
      <Footer settings={settings} languages={languages} />
      {/* On every page: the header's and footer's Try Demo work everywhere, not only on the landing page. */}
      <DemoWidgetHost
        content={{ copy: settings.demoWidget, conversation: demo, sender: settings.siteName, language }}
        productWidgetScriptUrl={settings.productWidgetScriptUrl}
      />
      <DraftPreview />
      <SourceRecorder />
      <SpeculationRules />
    </>
  )
}
