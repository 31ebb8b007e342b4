import { getPost, getPostSummaries } from '@/lib/content'
import { drawShareImage } from '@/components/seo/share-image'

// Each post's share image, drawn from its title: at build for published posts, on first request
// for later ones, then cached under the posts' tags.
export const dynamic = 'force-static'

export async function generateStaticParams() {
  return (await getPostSummaries()).map((post) => ({ slug: post.slug }))
}

export async function GET(_request: Request, { params }: { params: Promise<{ slug: string }> }) {
  const post = await getPost((await params).slug)
  if (!post) return new Response('Not found', { status: 404 })
  return drawShareImage(post.title)
}
