import type { Metadata } from 'next'
import { getAboutPage, getSiteSettings } from '@/lib/content'
import { pageMetadata } from '@/lib/metadata'
import { AboutView } from '@/components/about/about-view'

export async function generateMetadata(): Promise<Metadata> {
  return pageMetadata((await getAboutPage()).seo, 'about')
}

export default async function AboutPage() {
  const [page, settings] = await Promise.all([getAboutPage(), getSiteSettings()])
  return <AboutView page={page} settings={settings} />
}
