import { SampleTag } from '@/components/ui/sample-tag'
import type { PostSummary } from '@/sanity/content'
import { CategoryLinks, PostDate } from './post-meta'

/** A post in a list: its date, title (the link), summary and categories. */
export function PostCard({ post, sampleLabel, headingLevel = 2 }: { post: PostSummary; sampleLabel: string; headingLevel?: 2 | 3 }) {
  const Heading = headingLevel === 2 ? 'h2' : 'h3'
  return (
    <article className="rounded-2xl border border-slate-200 p-6 sm:p-8" data-post={post.slug}>
      <PostDate post={post} className="text-sm text-slate-600" />
      <Heading className="mt-2 text-2xl font-bold tracking-tight text-slate-900">
        <a href={post.path} className="hover:text-brand-700">
          {post.title}
        </a>
        {post.isSample ? <SampleTag label={sampleLabel} /> : null}
      </Heading>
      <p className="mt-3 leading-relaxed text-slate-700">{post.excerpt}</p>
      <CategoryLinks post={post} className="mt-4" />
    </article>
  )
}
