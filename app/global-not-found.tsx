import type { Metadata } from 'next'
import { getNotFoundPage } from '@/lib/content'
import { Container } from '@/components/ui/container'
import { buttonVariants } from '@/components/ui/button'
import { NotFoundLogger } from '@/components/site/not-found-logger'
import { SiteChrome } from '@/components/site/site-chrome'
import { SiteDocument } from '@/components/site/site-document'
import './globals.css'

// Every URL no route matches (experimental.globalNotFound); see components/site/site-document.tsx.
export async function generateMetadata(): Promise<Metadata> {
  // Next itself marks not-found responses noindex.
  const page = await getNotFoundPage()
  return { title: page.title, description: page.text }
}

export default async function GlobalNotFound() {
  const page = await getNotFoundPage()
  return (
    <SiteDocument>
      <SiteChrome>
        <NotFoundLogger />
        <Container className="flex min-h-[60vh] flex-col items-center justify-center py-24 text-center">
          <p className="text-6xl font-extrabold text-brand-600">404</p>
          <h1 className="mt-4 text-3xl font-bold tracking-tight text-slate-900 sm:text-4xl">{page.title}</h1>
          <p className="mt-4 max-w-md text-lg text-slate-600">{page.text}</p>
          <a href="/" className={`${buttonVariants({ size: 'lg' })} mt-10`}>
            {page.homeLabel}
          </a>
        </Container>
      </SiteChrome>
    </SiteDocument>
  )
}
