import { SampleTag } from '@/components/ui/sample-tag'
import { PageTitle } from '@/components/sections/page-header/page-header'
import { RichText } from '@/components/sections/rich-text/rich-text'
import { Container } from '@/components/ui/container'
import type { BlogCopy, Post, PostSummary } from '@/sanity/content'
import { cn } from '@/lib/cn'
import { CategoryLinks, PostByline } from './post-meta'
import { localizePath } from '@/lib/i18n/languages'

/** A post's page: title, byline, its text (drawn on the server), and the posts before and after it. */
export function PostView({
  post,
  copy,
  neighbours,
  sampleLabel,
  tocTitle,
}: {
  post: Post
  copy: BlogCopy
  neighbours: { previous: PostSummary | null; next: PostSummary | null }
  sampleLabel: string
  tocTitle: string
}) {
  const changelog = post.kind === 'changelog'
  return (
    <article>
      <PageTitle title={post.title} headingId="post-title" level={1} eyebrow={changelog ? copy.changelogTitle : copy.title} subtitle={post.excerpt}>
        {post.isSample ? (
          <p className="mt-4">
            <SampleTag label={sampleLabel} />
          </p>
        ) : null}
        <PostByline post={post} copy={copy} readingMinutes={post.readingMinutes} />
        <CategoryLinks post={post} className="mt-6 justify-center" />
      </PageTitle>
      <Container className="max-w-3xl pb-16" data-rich-text="">
        <RichText value={post.body} tocTitle={tocTitle} tocId="post-contents" />
      </Container>
      <Container className="max-w-3xl pb-20">
        <nav aria-label={changelog ? copy.changelogTitle : copy.title} className="grid gap-4 border-t border-slate-200 pt-8 sm:grid-cols-2">
          {neighbours.previous ? <NeighbourLink post={neighbours.previous} label={copy.labels.previous} rel="prev" /> : <span />}
          {neighbours.next ? <NeighbourLink post={neighbours.next} label={copy.labels.next} rel="next" className="sm:text-right" /> : <span />}
          <a href={localizePath(changelog ? '/changelog' : '/blog', post.language)} className="font-medium text-brand-700 hover:underline sm:col-span-2">
            {changelog ? copy.labels.backToChangelog : copy.labels.backToBlog}
          </a>
        </nav>
      </Container>
    </article>
  )
}

function NeighbourLink({ post, label, rel, className }: { post: PostSummary; label: string; rel: 'prev' | 'next'; className?: string }) {
  return (
    <a href={post.path} rel={rel} className={cn('group block rounded-xl border border-slate-200 p-4 hover:border-brand-600', className)}>
      <span className="block text-sm text-slate-600">{label}</span>
      <span className="mt-1 block font-semibold text-slate-900 group-hover:text-brand-700">{post.title}</span>
    </a>
  )
}
