import type { Metadata } from 'next'
import { getLandingPage, getSiteSettings } from '@/lib/content'
import { pageMetadata } from '@/lib/metadata'
import { landingStructuredData } from '@/components/seo/structured-data'
import { JsonLd } from '@/components/seo/json-ld'
import { PageBuilder } from '@/components/sections/page-builder'

export async function generateMetadata(): Promise<Metadata> {
  return pageMetadata((await getLandingPage()).seo, 'home')
}

export default async function LandingPage() {
  const [page, settings] = await Promise.all([getLandingPage(), getSiteSettings()])
  return (
    <>
      <JsonLd data={landingStructuredData(settings, page)} />
      <PageBuilder title={page.title} sections={page.sections} context={{ settings, ctaLocation: 'cta' }} />
    </>
  )
}
