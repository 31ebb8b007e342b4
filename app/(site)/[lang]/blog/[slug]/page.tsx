import type { Metadata } from 'next'
import { notFound } from 'next/navigation'
import { getBlogCopy, getPost, getPostSummaries, getSiteSettings } from '@/sanity/content'
import { neighbours } from '@/sanity/content/posts'
import { SLUG_PATTERN } from '@/lib/content/paths'
import { routeLanguage } from '@/sanity/content/route-language'
import { notFoundMetadata, postMetadata, postShareImagePath } from '@/components/seo/metadata'
import { postStructuredData } from '@/components/seo/structured-data'
import { JsonLd } from '@/components/seo/json-ld'
import { PostView } from '@/components/blog/post-view'

// Every post, article or changelog entry, at /blog/<slug>: prerendered at build, and one published
// later renders on its first request and is then cached under the posts' tags, so the publish
// webhook refreshes it and an unpublished post becomes a 404 (proxy.ts) without a rebuild.

type Params = { params: Promise<{ lang: string; slug: string }> }

export async function generateStaticParams({ params }: { params: { lang: string } }) {
  return (await getPostSummaries(params.lang)).map((post) => ({ slug: post.slug }))
}

async function postAt(params: Params['params']) {
  const { slug } = await params
  const language = await routeLanguage(params)
  return SLUG_PATTERN.test(slug) ? getPost(slug, language) : null
}

export async function generateMetadata({ params }: Params): Promise<Metadata> {
  const post = await postAt(params)
  return post ? postMetadata(post) : notFoundMetadata((await params).lang)
}

export default async function PostPage({ params }: Params) {
  const post = await postAt(params)
  if (!post) notFound()
  const [copy, settings, posts] = await Promise.all([getBlogCopy(post.language), getSiteSettings(post.language), getPostSummaries(post.language)])
  if (!copy) notFound()
  return (
    <>
      <JsonLd data={postStructuredData(settings, post, post.seo.image ?? postShareImagePath(post.slug, post.language))} />
      <PostView post={post} copy={copy} neighbours={neighbours(posts, post)} sampleLabel={settings.labels.sample} tocTitle={settings.labels.tableOfContents} />
    </>
  )
}
