import type { Metadata } from 'next'
import { getLandingPage, getSiteSettings } from '@/lib/content'
import { pageMetadata } from '@/lib/metadata'
import { landingStructuredData } from '@/lib/structured-data'
import { JsonLd } from '@/components/seo/json-ld'
import { CardSection } from '@/components/landing/card-section'
import { ClosingCta } from '@/components/landing/closing-cta'
import { Faq } from '@/components/landing/faq'
import { Hero } from '@/components/landing/hero'
import { LogoStrip } from '@/components/landing/logo-strip'
import { Pricing } from '@/components/landing/pricing'

export async function generateMetadata(): Promise<Metadata> {
  return pageMetadata((await getLandingPage()).seo, 'home')
}

export default async function LandingPage() {
  const [page, settings] = await Promise.all([getLandingPage(), getSiteSettings()])
  return (
    <>
      <JsonLd data={landingStructuredData(settings, page)} />
      <Hero hero={page.hero} />
      <LogoStrip logos={page.logos} sampleLabel={settings.labels.sample} />
      <CardSection id="features" section={page.features} />
      <CardSection id="audiences" section={page.audiences} columns={4} tinted />
      <Pricing pricing={page.pricing} />
      <Faq faq={page.faq} />
      <ClosingCta cta={page.cta} sampleLabel={settings.labels.sample} />
    </>
  )
}
