import { getAboutPage, getBlogCopy, getLandingPage, getSiteSettings, getWaitlistPage } from '@/lib/content'
import { sectionPageHeadline } from '@/lib/content/reshape'
import { SHARE_IMAGE_PAGES, type SharePage } from '@/lib/metadata'
import { drawShareImage } from '@/components/seo/share-image'

// Drawn once at build (and on revalidation), like the pages they illustrate.
export const dynamic = 'force-static'
export const dynamicParams = false

export function generateStaticParams() {
  return Object.keys(SHARE_IMAGE_PAGES).map((page) => ({ page }))
}

const headlines: Record<SharePage, () => Promise<string>> = {
  home: async () => sectionPageHeadline(await getLandingPage()) ?? (await getSiteSettings()).seo.title,
  about: async () => sectionPageHeadline(await getAboutPage()) ?? (await getSiteSettings()).seo.title,
  waitlist: async () => (await getWaitlistPage()).title,
  blog: async () => (await getBlogCopy()).title,
  changelog: async () => (await getBlogCopy()).changelogTitle,
}

export async function GET(_request: Request, { params }: { params: Promise<{ page: string }> }) {
  const { page } = await params
  if (!(page in headlines)) return new Response('Not found', { status: 404 })
  return drawShareImage(await headlines[page as SharePage]())
}
