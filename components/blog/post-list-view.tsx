import { PageTitle } from '@/components/sections/page-header/page-header'
import { Container } from '@/components/ui/container'
import type { BlogCopy, Category, PostListPage } from '@/sanity/content'
import { cn } from '@/lib/cn'
import { feedPath, postListPath } from '@/lib/content/paths'
import { localizePath } from '@/lib/i18n/languages'
import { FeedLink } from './feed-link'
import { PostCard } from './post-card'

/** /blog and each category's list: the heading, the categories as links, a page of articles, and the links between pages. */
export function PostListView({ list, categories, copy, sampleLabel }: { list: PostListPage; categories: Category[]; copy: BlogCopy; sampleLabel: string }) {
  const { category, page, pages } = list
  const pageLabel = copy.labels.pageOf.replaceAll('{page}', String(page)).replaceAll('{pages}', String(pages))
  return (
    <>
      <PageTitle
        title={category ? category.title : copy.title}
        headingId="blog-title"
        level={1}
        eyebrow={category ? copy.title : null}
        subtitle={category ? category.description : copy.intro}
      >
        <p className="mt-6 flex flex-wrap justify-center gap-x-6 gap-y-2 text-sm">
          <FeedLink href={feedPath('article', copy.language)} label={copy.labels.feed} />
          <a href={localizePath('/changelog', copy.language)} className="font-medium text-brand-700 hover:underline">
            {copy.labels.changelogLink}
          </a>
        </p>
      </PageTitle>
      <Container className="max-w-3xl pb-20">
        {categories.length > 0 ? (
          <nav aria-label={copy.labels.categories} className="mb-10">
            <ul className="flex flex-wrap justify-center gap-2">
              {[{ slug: null, title: copy.labels.allPosts }, ...categories].map((item) => {
                const current = (category?.slug ?? null) === item.slug
                return (
                  <li key={item.slug ?? ''}>
                    <a
                      href={postListPath({ category: item.slug, language: copy.language })}
                      aria-current={current ? 'page' : undefined}
                      className={cn(
                        'inline-block rounded-full border px-4 py-1.5 text-sm font-medium',
                        current ? 'border-brand-700 bg-brand-700 text-white' : 'border-slate-300 text-slate-700 hover:border-brand-600',
                      )}
                    >
                      {item.title}
                    </a>
                  </li>
                )
              })}
            </ul>
          </nav>
        ) : null}
        {list.posts.length === 0 ? <p className="text-center text-slate-600">{copy.labels.empty}</p> : null}
        <div className="space-y-6">
          {list.posts.map((post) => (
            <PostCard key={post.id} post={post} sampleLabel={sampleLabel} />
          ))}
        </div>
        {pages > 1 ? (
          <nav aria-label={pageLabel} className="mt-12 flex flex-wrap items-center justify-between gap-4 text-sm">
            {page > 1 ? (
              <a
                href={postListPath({ category: category?.slug, page: page - 1, language: copy.language })}
                rel="prev"
                className="font-medium text-brand-700 hover:underline"
              >
                {copy.labels.newer}
              </a>
            ) : (
              <span />
            )}
            <span className="text-slate-600">{pageLabel}</span>
            {page < pages ? (
              <a
                href={postListPath({ category: category?.slug, page: page + 1, language: copy.language })}
                rel="next"
                className="font-medium text-brand-700 hover:underline"
              >
                {copy.labels.older}
              </a>
            ) : (
              <span />
            )}
          </nav>
        ) : null}
      </Container>
    </>
  )
}
