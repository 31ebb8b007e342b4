import { getBlogCopy, getFeedPosts, getSiteSettings } from '@/sanity/content'
import type { PostKind } from '@/sanity/content'
import { buildFeed } from './feed'

/** A language's feed: RSS 2.0, built when a post is published (the routes are static, refreshed by the webhook). */
export async function feedResponse(kind: PostKind, language: string): Promise<Response> {
  const [posts, copy, settings] = await Promise.all([getFeedPosts(kind, language), getBlogCopy(language), getSiteSettings(language)])
  if (!copy) return new Response('Not found', { status: 404 })
  return new Response(await buildFeed({ kind, posts, copy, settings }), { headers: { 'Content-Type': 'application/rss+xml; charset=utf-8' } })
}
