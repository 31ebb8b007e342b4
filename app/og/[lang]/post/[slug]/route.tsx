import { getAllPostSummaries, getPost } from '@/sanity/content'
import { drawShareImage } from '@/components/seo/share-image'

// Each post's share image, drawn from its title in its language: at build for published posts, on
// first request for later ones, then cached under the posts' tags.
export const dynamic = 'force-static'

export async function generateStaticParams() {
  return (await getAllPostSummaries()).map((post) => ({ lang: post.language, slug: post.slug }))
}

export async function GET(_request: Request, { params }: { params: Promise<{ lang: string; slug: string }> }) {
  const { lang, slug } = await params
  const post = await getPost(slug, lang)
  if (!post) return new Response('Not found', { status: 404 })
  return drawShareImage(post.title, post.language)
}
