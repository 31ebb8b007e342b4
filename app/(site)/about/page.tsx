import type { Metadata } from 'next'
import { getAboutPage, getSiteSettings } from '@/lib/content'
import { pageMetadata } from '@/lib/metadata'
import { PageBuilder } from '@/components/sections/page-builder'

export async function generateMetadata(): Promise<Metadata> {
  return pageMetadata((await getAboutPage()).seo, 'about')
}

export default async function AboutPage() {
  const [page, settings] = await Promise.all([getAboutPage(), getSiteSettings()])
  return <PageBuilder title={page.title} sections={page.sections} context={{ settings, ctaLocation: 'about_cta' }} />
}
