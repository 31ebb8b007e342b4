import { getPage, getPageList } from '@/sanity/content'
import { drawShareImage } from '@/components/seo/share-image'

// The share image of each page made in the Studio, in its language: drawn at build for published
// pages, on first request for later ones, then cached under the same tags as the page.
export const dynamic = 'force-static'

export async function generateStaticParams() {
  return (await getPageList()).map((page) => ({ lang: page.language, slug: page.slug }))
}

export async function GET(_request: Request, { params }: { params: Promise<{ lang: string; slug: string }> }) {
  const { lang, slug } = await params
  const page = await getPage(slug, lang)
  if (!page) return new Response('Not found', { status: 404 })
  return drawShareImage(page.title, page.language)
}
