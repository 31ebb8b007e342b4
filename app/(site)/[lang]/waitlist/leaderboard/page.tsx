import type { Metadata } from 'next'
import { notFound } from 'next/navigation'
import { getSiteSettings, getWaitlistPage } from '@/sanity/content'
import { routeLanguage, type LanguageParams } from '@/sanity/content/route-language'
import { notFoundMetadata } from '@/components/seo/metadata'
import { leaderboard } from '@/components/waitlist/leaderboard'
import { LeaderboardView } from '@/components/waitlist/leaderboard-view'

// The opt-in leaderboard, static like every page: the board is read by the server at most every
// LEADERBOARD_REFRESH_SECONDS (components/waitlist/leaderboard.ts), never per visit. Hidden from
// search engines: it is people's chosen names, not the product's content.
export async function generateMetadata({ params }: LanguageParams): Promise<Metadata> {
  const language = await routeLanguage(params)
  const [page, settings] = await Promise.all([getWaitlistPage(language), getSiteSettings(language)])
  if (!page) return notFoundMetadata(language)
  return {
    title: { absolute: `${page.leaderboardPage.title} | ${settings.siteName}` },
    description: page.leaderboardPage.intro,
    robots: { index: false, follow: true },
  }
}

export default async function WaitlistLeaderboardPage({ params }: LanguageParams) {
  const language = await routeLanguage(params)
  const [page, rows] = await Promise.all([getWaitlistPage(language), leaderboard()])
  if (!page) notFound()
  return <LeaderboardView copy={page.leaderboardPage} rows={rows} language={language} />
}
