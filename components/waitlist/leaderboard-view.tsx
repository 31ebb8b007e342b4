import type { LeaderboardPageCopy } from '@/sanity/content/types'
import { localizePath, languageTag } from '@/lib/i18n/languages'
import { Container } from '@/components/ui/container'
import { ButtonLink } from '@/components/ui/button'
import type { BoardRow } from './leaderboard'

/**
 * The leaderboard (/waitlist/leaderboard): rank, chosen name and friends who joined, as a table that
 * stays within 320 px (the names wrap; the numbers keep their column). The names are text the
 * database held to the nickname rule (supabase/schemas/20_leaderboard.sql), drawn as text.
 */
export function LeaderboardView({ copy, rows, language }: { copy: LeaderboardPageCopy; rows: BoardRow[] | 'unavailable'; language: string }) {
  const numbers = new Intl.NumberFormat(languageTag(language))
  return (
    <div className="min-h-svh bg-gradient-to-b from-brand-50 to-white">
      <Container className="py-10 sm:py-16">
        <div className="mx-auto max-w-2xl">
          <h1 className="text-3xl font-extrabold tracking-tight text-slate-900 sm:text-4xl">{copy.title}</h1>
          <p className="mt-4 text-lg text-slate-600">{copy.intro}</p>
          {rows === 'unavailable' ? (
            <p className="mt-8 text-slate-700">{copy.unavailableText}</p>
          ) : rows.length === 0 ? (
            <p className="mt-8 text-slate-700" data-testid="board-empty">
              {copy.emptyText}
            </p>
          ) : (
            <table className="mt-8 w-full table-fixed border-collapse text-left">
              <thead>
                <tr className="border-b border-slate-300 text-sm text-slate-600">
                  <th scope="col" className="w-16 py-2 pr-2 font-medium">
                    {copy.rankHeader}
                  </th>
                  <th scope="col" className="py-2 pr-2 font-medium">
                    {copy.nameHeader}
                  </th>
                  <th scope="col" className="w-28 py-2 text-right font-medium">
                    {copy.referralsHeader}
                  </th>
                </tr>
              </thead>
              <tbody>
                {rows.map((row) => (
                  <tr key={row.rank} className="border-b border-slate-200">
                    <td className="py-3 pr-2 tabular-nums text-slate-600">{numbers.format(row.rank)}</td>
                    <td className="py-3 pr-2 font-medium break-words text-slate-900">{row.name}</td>
                    <td className="py-3 text-right tabular-nums text-slate-900">{numbers.format(row.referrals)}</td>
                  </tr>
                ))}
              </tbody>
            </table>
          )}
          <ButtonLink href={localizePath('/waitlist', language)} className="mt-10">
            {copy.joinLabel}
          </ButtonLink>
        </div>
      </Container>
    </div>
  )
}
