import type { Metadata } from 'next'
import { notFound } from 'next/navigation'
import { getBlogCopy, getPostSummaries, getSiteSettings } from '@/lib/content'
import { changelogEntries } from '@/lib/content/posts'
import { routeLanguage, type LanguageParams } from '@/lib/i18n/route'
import { notFoundMetadata, pageMetadata } from '@/lib/metadata'
import { ChangelogView } from '@/components/blog/changelog-view'

export async function generateMetadata({ params }: LanguageParams): Promise<Metadata> {
  const language = await routeLanguage(params)
  const copy = await getBlogCopy(language)
  return copy ? pageMetadata(copy.changelogSeo, 'changelog', { language, languages: copy.languages }) : notFoundMetadata(language)
}

export default async function ChangelogPage({ params }: LanguageParams) {
  const language = await routeLanguage(params)
  const [copy, posts, settings] = await Promise.all([getBlogCopy(language), getPostSummaries(language), getSiteSettings(language)])
  if (!copy) notFound()
  return <ChangelogView entries={changelogEntries(posts)} copy={copy} sampleLabel={settings.labels.sample} />
}
