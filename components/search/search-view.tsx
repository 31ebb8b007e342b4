import type { ReactNode } from 'react'
import type { SearchCopy } from '@/sanity/content'
import { Container } from '@/components/ui/container'
import { buttonVariants } from '@/components/ui/button'
import { searchPath } from './path'
import { MAX_QUERY_LENGTH, type SearchHit, type Segment } from './search-index'

/**
 * The search page: a plain GET form (it works without JavaScript and adds none) and the results
 * drawn on the server. The query and every excerpt are text in React elements, never HTML.
 */
export function SearchView({ copy, language, query, hits }: { copy: SearchCopy; language: string; query: string; hits: SearchHit[] }) {
  return (
    <Container className="max-w-3xl py-12 sm:py-16">
      <h1 className="text-3xl font-bold tracking-tight text-slate-900 sm:text-4xl">{copy.title}</h1>
      <form role="search" action={searchPath(language)} method="get" className="mt-8 flex flex-wrap items-end gap-3">
        <label htmlFor="search-query" className="w-full text-sm font-medium text-slate-700">
          {copy.label}
        </label>
        <input
          id="search-query"
          type="search"
          name="q"
          defaultValue={query}
          maxLength={MAX_QUERY_LENGTH}
          placeholder={copy.placeholder}
          autoComplete="off"
          enterKeyHint="search"
          className="min-w-0 flex-1 basis-48 rounded-lg border border-slate-300 bg-white px-3 py-2.5 text-base text-slate-900 placeholder:text-slate-500 focus:border-brand-600 focus:outline-none focus:ring-2 focus:ring-brand-600/30"
        />
        <button type="submit" className={buttonVariants({ size: 'lg' })}>
          {copy.buttonLabel}
        </button>
      </form>
      {query ? <Results copy={copy} query={query} hits={hits} /> : <p className="mt-8 text-slate-600">{copy.emptyText}</p>}
    </Container>
  )
}

function Results({ copy, query, hits }: { copy: SearchCopy; query: string; hits: SearchHit[] }) {
  if (hits.length === 0) {
    return (
      <section aria-labelledby="search-summary" className="mt-10">
        <h2 id="search-summary" className="text-lg font-semibold text-slate-900">
          {fill(copy.noResults, query, 0)}
        </h2>
        <p className="mt-2 text-slate-600">{copy.noResultsText}</p>
      </section>
    )
  }
  return (
    <section aria-labelledby="search-summary" className="mt-10">
      <h2 id="search-summary" className="text-lg font-semibold text-slate-900">
        {fill(hits.length === 1 ? copy.resultCountOne : copy.resultCountMany, query, hits.length)}
      </h2>
      <ol className="mt-6 space-y-8">
        {hits.map((hit) => (
          <li key={hit.path}>
            <h3 className="text-lg font-semibold text-brand-700">
              <a href={hit.path} className="underline-offset-2 hover:underline">
                <Highlighted segments={hit.title} />
              </a>
            </h3>
            <p className="mt-1 text-sm text-slate-500">{hit.path}</p>
            <p className="mt-2 text-slate-700">
              <Highlighted segments={hit.excerpt} />
            </p>
          </li>
        ))}
      </ol>
    </section>
  )
}

function Highlighted({ segments }: { segments: Segment[] }) {
  return segments.map((segment, index) =>
    segment.mark ? (
      <mark key={index} className="rounded-sm bg-amber-100 px-0.5 text-slate-900">
        {segment.text}
      </mark>
    ) : (
      segment.text
    ),
  )
}

/** A sentence from the Studio with {query} (the words searched for, quoted) and {count} filled in. */
function fill(template: string, query: string, count: number): ReactNode[] {
  return template.split(/(\{query\}|\{count\})/).map((part, index) =>
    part === '{query}' ? (
      <q key={index} className="break-words">
        {query}
      </q>
    ) : part === '{count}' ? (
      String(count)
    ) : (
      part
    ),
  )
}
