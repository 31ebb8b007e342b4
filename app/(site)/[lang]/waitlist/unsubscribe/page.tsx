import type { Metadata } from 'next'
import { notFound } from 'next/navigation'
import { getSiteSettings, getWaitlistPage } from '@/sanity/content'
import { routeLanguage, type LanguageParams } from '@/sanity/content/route-language'
import { notFoundMetadata } from '@/components/seo/metadata'
import { Container } from '@/components/ui/container'
import { LeaveWaitlist } from '@/components/waitlist/leave-waitlist'

// Where an e-mail's "Take me off the waitlist" link (and a GET of its List-Unsubscribe address)
// lands. Static: the token is in the URL's fragment, read by the island, which asks for a press
// before it removes anyone (mail scanners follow links). Not for search engines.
export async function generateMetadata({ params }: LanguageParams): Promise<Metadata> {
  const language = await routeLanguage(params)
  const [page, settings] = await Promise.all([getWaitlistPage(language), getSiteSettings(language)])
  if (!page) return notFoundMetadata(language)
  return { title: { absolute: `${page.unsubscribePage.pageTitle} | ${settings.siteName}` }, robots: { index: false, follow: false } }
}

export default async function WaitlistUnsubscribePage({ params }: LanguageParams) {
  const language = await routeLanguage(params)
  const page = await getWaitlistPage(language)
  if (!page) notFound()
  return (
    <div className="min-h-svh bg-gradient-to-b from-brand-50 to-white">
      <Container className="py-10 sm:py-16">
        <LeaveWaitlist copy={page.unsubscribePage} language={language} />
      </Container>
    </div>
  )
}
