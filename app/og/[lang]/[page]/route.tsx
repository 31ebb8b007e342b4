import { getAboutPage, getBlogCopy, getLandingPage, getSiteLanguages, getSiteSettings, getWaitlistPage } from '@/sanity/content'
import { sectionPageHeadline } from '@/sanity/content/reshape'
import { SHARE_IMAGE_PAGES, type SharePage } from '@/components/seo/metadata'
import { drawShareImage } from '@/components/seo/share-image'

// Drawn once at build (and on revalidation), like the pages they illustrate.
export const dynamic = 'force-static'

export async function generateStaticParams() {
  const languages = await getSiteLanguages()
  return languages.flatMap((language) => Object.keys(SHARE_IMAGE_PAGES).map((page) => ({ lang: language.code, page })))
}

/** Each fixed page's headline in a language; null where the page is not in that language. */
const headlines: Record<SharePage, (language: string) => Promise<string | null>> = {
  home: async (language) => {
    const page = await getLandingPage(language)
    return page && (sectionPageHeadline(page) ?? (await getSiteSettings(language)).seo.title)
  },
  about: async (language) => {
    const page = await getAboutPage(language)
    return page && (sectionPageHeadline(page) ?? (await getSiteSettings(language)).seo.title)
  },
  waitlist: async (language) => (await getWaitlistPage(language))?.title ?? null,
  blog: async (language) => (await getBlogCopy(language))?.title ?? null,
  changelog: async (language) => (await getBlogCopy(language))?.changelogTitle ?? null,
}

export async function GET(_request: Request, { params }: { params: Promise<{ lang: string; page: string }> }) {
  const { lang, page } = await params
  const known = (await getSiteLanguages()).some((language) => language.code === lang)
  const headline = known && page in headlines ? await headlines[page as SharePage](lang) : null
  if (!headline) return new Response('Not found', { status: 404 })
  return drawShareImage(headline, lang)
}
