import type { Metadata } from 'next'
import { getWaitlistPage } from '@/lib/content'
import { pageMetadata } from '@/lib/metadata'
import { WaitlistPageView } from '@/components/waitlist/waitlist-page-view'

export async function generateMetadata(): Promise<Metadata> {
  return pageMetadata((await getWaitlistPage()).seo, 'waitlist')
}

export default async function WaitlistPage() {
  return <WaitlistPageView page={await getWaitlistPage()} />
}
