import type { Metadata } from 'next'
import { getSiteSettings, getWaitlistPage } from '@/lib/content'
import { Container } from '@/components/ui/container'
import { LeaveWaitlist } from '@/components/waitlist/leave-waitlist'

// Where an e-mail's "Take me off the waitlist" link (and a GET of its List-Unsubscribe address)
// lands. Static: the token is in the URL's fragment, read by the island, which asks for a press
// before it removes anyone (mail scanners follow links). Not for search engines.
export async function generateMetadata(): Promise<Metadata> {
  const [page, settings] = await Promise.all([getWaitlistPage(), getSiteSettings()])
  return { title: { absolute: `${page.unsubscribePage.pageTitle} | ${settings.siteName}` }, robots: { index: false, follow: false } }
}

export default async function WaitlistUnsubscribePage() {
  const page = await getWaitlistPage()
  return (
    <div className="min-h-svh bg-gradient-to-b from-brand-50 to-white">
      <Container className="py-10 sm:py-16">
        <LeaveWaitlist copy={page.unsubscribePage} />
      </Container>
    </div>
  )
}
