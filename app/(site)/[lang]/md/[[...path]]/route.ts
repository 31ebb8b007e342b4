import { twinResponse } from '@/components/markdown/twin-route'
import { getPageList, getPostSummaries } from '@/sanity/content'
import { routeLanguage } from '@/sanity/content/route-language'

// The Markdown twin of every page and post (components/markdown): /about.md, /blog/<slug>.md,
// /index.md for the home page, or the page's own address asked for Markdown; proxy.ts rewrites
// those here, and answers /<lang>/md/… itself with a 404. Prerendered like the pages, a twin
// published later renders on its first request, and the publish webhook refreshes both (same tags).

export const dynamic = 'force-static'

type Params = { params: Promise<{ lang: string; path?: string[] }> }

export async function generateStaticParams({ params }: { params: { lang: string } }) {
  const [pages, posts] = await Promise.all([getPageList(), getPostSummaries(params.lang)])
  return [[], ['about'], ...pages.filter((page) => page.language === params.lang).map((page) => [page.slug]), ...posts.map((post) => ['blog', post.slug])].map(
    (path) => ({ path }),
  )
}

export async function GET(_request: Request, { params }: Params) {
  const language = await routeLanguage(params)
  const { path = [] } = await params
  return twinResponse(language, `/${path.join('/')}`)
}
