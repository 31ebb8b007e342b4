import type { Metadata } from 'next'
import { getSiteSettings, getWaitlistPage } from '@/lib/content'
import { waitlistBackend } from '@/lib/env'
import { Container } from '@/components/ui/container'
import { ConfirmLink } from '@/components/waitlist/confirm-link'

// Where the confirmation e-mail's link lands. Static like every page: the token is in the URL's
// fragment, read by the island in the browser. Not for search engines, no canonical or share card.
export async function generateMetadata(): Promise<Metadata> {
  const [page, settings] = await Promise.all([getWaitlistPage(), getSiteSettings()])
  return { title: { absolute: `${page.confirmPage.pageTitle} | ${settings.siteName}` }, robots: { index: false, follow: false } }
}

export default async function WaitlistConfirmPage() {
  const [page, settings] = await Promise.all([getWaitlistPage(), getSiteSettings()])
  return (
    // At least a screen tall: the island's answer (a form, a place in line) grows the section after
    // the first paint, and the footer below must not be in view to be pushed (layout shift).
    <div className="min-h-svh bg-gradient-to-b from-brand-50 to-white">
      <Container className="py-10 sm:py-16">
        <ConfirmLink copy={page.confirmPage} placeCopy={page.placePanel} messages={page.messages} backend={waitlistBackend()} appUrl={settings.appUrl} />
      </Container>
    </div>
  )
}
