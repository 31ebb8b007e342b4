import type { Metadata } from 'next'
import { notFound } from 'next/navigation'
import { getBlogCopy, getPostSummaries, getSiteSettings } from '@/sanity/content'
import { changelogEntries } from '@/sanity/content/posts'
import { routeLanguage, type LanguageParams } from '@/sanity/content/route-language'
import { notFoundMetadata, pageMetadata } from '@/components/seo/metadata'
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
