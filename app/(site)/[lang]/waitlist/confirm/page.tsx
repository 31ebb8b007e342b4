import type { Metadata } from 'next'
import { notFound } from 'next/navigation'
import { getSiteSettings, getWaitlistPage } from '@/sanity/content'
import { waitlistBackend } from '@/lib/env'
import { routeLanguage, type LanguageParams } from '@/sanity/content/route-language'
import { notFoundMetadata } from '@/components/seo/metadata'
import { Container } from '@/components/ui/container'
import { ConfirmLink } from '@/components/waitlist/confirm-link'

// Where the confirmation e-mail's link lands, in the language the person signed up in. Static like
// every page: the token is in the URL's fragment, read by the island in the browser. Not for
// search engines, no canonical or share card.
export async function generateMetadata({ params }: LanguageParams): Promise<Metadata> {
  const language = await routeLanguage(params)
  const [page, settings] = await Promise.all([getWaitlistPage(language), getSiteSettings(language)])
  if (!page) return notFoundMetadata(language)
  return { title: { absolute: `${page.confirmPage.pageTitle} | ${settings.siteName}` }, robots: { index: false, follow: false } }
}

export default async function WaitlistConfirmPage({ params }: LanguageParams) {
  const language = await routeLanguage(params)
  const [page, settings] = await Promise.all([getWaitlistPage(language), getSiteSettings(language)])
  if (!page) notFound()
  return (
    // At least a screen tall: the island's answer (a form, a place in line) grows the section after
    // the first paint, and the footer below must not be in view to be pushed (layout shift).
    <div className="min-h-svh bg-gradient-to-b from-brand-50 to-white">
      <Container className="py-10 sm:py-16">
        <ConfirmLink
          copy={page.confirmPage}
          placeCopy={page.placePanel}
          rewards={page.rewards}
          research={{ copy: page.tasksPanel, tasks: page.tasks, formCopy: page.form }}
          messages={page.messages}
          backend={waitlistBackend()}
          appUrl={settings.appUrl}
          language={language}
        />
      </Container>
    </div>
  )
}
