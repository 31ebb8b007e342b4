import { PageTitle } from '@/components/sections/page-header/page-header'
import { Container } from '@/components/ui/container'
import type { BlogCopy, PostSummary } from '@/sanity/content'
import { feedPath } from '@/lib/content/paths'
import { FeedLink } from './feed-link'
import { PostCard } from './post-card'

/** /changelog: every entry, newest first, each with its date and summary and a link to the whole entry. */
export function ChangelogView({ entries, copy, sampleLabel }: { entries: PostSummary[]; copy: BlogCopy; sampleLabel: string }) {
  return (
    <>
      <PageTitle title={copy.changelogTitle} headingId="changelog-title" level={1} subtitle={copy.changelogIntro}>
        <p className="mt-6 text-sm">
          <FeedLink href={feedPath('changelog', copy.language)} label={copy.labels.feed} />
        </p>
      </PageTitle>
      <Container className="max-w-3xl pb-20">
        {entries.length === 0 ? <p className="text-center text-slate-600">{copy.labels.empty}</p> : null}
        <ol className="space-y-6">
          {entries.map((entry) => (
            <li key={entry.id}>
              <PostCard post={entry} sampleLabel={sampleLabel} />
            </li>
          ))}
        </ol>
      </Container>
    </>
  )
}
