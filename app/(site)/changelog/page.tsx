import type { Metadata } from 'next'
import { getBlogCopy, getPostSummaries, getSiteSettings } from '@/lib/content'
import { changelogEntries } from '@/lib/content/posts'
import { pageMetadata } from '@/lib/metadata'
import { ChangelogView } from '@/components/blog/changelog-view'

export async function generateMetadata(): Promise<Metadata> {
  return pageMetadata((await getBlogCopy()).changelogSeo, 'changelog')
}

export default async function ChangelogPage() {
  const [copy, posts, settings] = await Promise.all([getBlogCopy(), getPostSummaries(), getSiteSettings()])
  return <ChangelogView entries={changelogEntries(posts)} copy={copy} sampleLabel={settings.labels.sample} />
}
