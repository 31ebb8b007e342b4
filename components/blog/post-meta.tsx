import { formatDate } from '@/components/sections/page-header/page-header'
import { SanityImage } from '@/components/ui/sanity-image'
import type { BlogCopy, PostSummary } from '@/sanity/content'
import { cn } from '@/lib/cn'
import { postListPath } from '@/lib/content/paths'

/** A post's publication day (the date part of its time, in UTC: one day for every reader). */
export function PostDate({ post, className }: { post: Pick<PostSummary, 'publishedAt' | 'language'>; className?: string }) {
  const day = post.publishedAt.slice(0, 10)
  return (
    <time dateTime={post.publishedAt} className={className}>
      {formatDate(day, post.language)}
    </time>
  )
}

/** Date, reading time and authors under a post's title. */
export function PostByline({ post, copy, readingMinutes }: { post: PostSummary; copy: BlogCopy; readingMinutes: number }) {
  return (
    <div className="mt-6 flex flex-wrap items-center justify-center gap-x-4 gap-y-3 text-sm text-slate-600">
      {post.authors.length > 0 ? (
        <p className="flex flex-wrap items-center gap-x-3 gap-y-2">
          <span>{copy.labels.byline}</span>
          {post.authors.map((author) => (
            <span key={author.name} className="inline-flex items-center gap-2">
              <SanityImage image={author.picture} sizes="32px" alt="" className="size-8 rounded-full object-cover" />
              <span>
                <span className="font-semibold text-slate-900">{author.name}</span>
                {author.role ? <span className="text-slate-600">, {author.role}</span> : null}
              </span>
            </span>
          ))}
        </p>
      ) : null}
      <p className="flex flex-wrap gap-x-4">
        <PostDate post={post} />
        <span>{copy.labels.readingTime.replaceAll('{minutes}', String(readingMinutes))}</span>
      </p>
    </div>
  )
}

/** A post's categories as links to their lists. */
export function CategoryLinks({ post, className }: { post: PostSummary; className?: string }) {
  if (post.categories.length === 0) return null
  return (
    <ul className={cn('flex flex-wrap gap-2', className)}>
      {post.categories.map((category) => (
        <li key={category.slug}>
          <a
            href={postListPath({ category: category.slug, language: post.language })}
            className="inline-block rounded-full bg-brand-50 px-3 py-1 text-sm font-medium text-brand-800 hover:bg-brand-100"
          >
            {category.title}
          </a>
        </li>
      ))}
    </ul>
  )
}
