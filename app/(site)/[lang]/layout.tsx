import type { Metadata } from 'next'
import type { ReactNode } from 'react'
import { feedAlternates } from '@/components/seo/metadata'
import { languageParams, routeLanguage } from '@/sanity/content/route-language'
import { SiteChrome } from '@/components/site/site-chrome'
import { SiteDocument } from '@/components/site/site-document'
import '../../globals.css'

/** Every language the site speaks is prerendered; one added in the Studio later renders on its first request. */
export const generateStaticParams = languageParams

/** Pages with metadata of their own name the feeds too (components/seo/metadata.ts): the head of every page links its language's. */
export async function generateMetadata({ params }: { params: Promise<{ lang: string }> }): Promise<Metadata> {
  return { alternates: { types: await feedAlternates(await routeLanguage(params)) } }
}

export default async function SiteLayout({ children, params }: { children: ReactNode; params: Promise<{ lang: string }> }) {
  const language = await routeLanguage(params)
  return (
    <SiteDocument language={language}>
      <SiteChrome language={language}>{children}</SiteChrome>
    </SiteDocument>
  )
}
