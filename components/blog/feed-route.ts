import { getBlogCopy, getFeedPosts, getSiteSettings } from '@/lib/content'
import type { PostKind } from '@/lib/content'
import { buildFeed } from './feed'

/** A feed's answer: RSS 2.0, built when a post is published (the routes are static, refreshed by the webhook). */
export async function feedResponse(kind: PostKind): Promise<Response> {
  const [posts, copy, settings] = await Promise.all([getFeedPosts(kind), getBlogCopy(), getSiteSettings()])
  return new Response(await buildFeed({ kind, posts, copy, settings }), { headers: { 'Content-Type': 'application/rss+xml; charset=utf-8' } })
}
