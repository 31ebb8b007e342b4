import { Container } from '@/components/ui/container'
import type { SectionProps } from '../types'

/** A page's title block: the h1 of about, legal and builder pages, with an optional "last updated" date. */
export function PageHeader({ section, headingId, context }: SectionProps<'pageHeaderSection'>) {
  return (
    <section id={section.anchorId ?? undefined} aria-labelledby={headingId} className="bg-gradient-to-b from-brand-50 to-white">
      <Container className="py-20 text-center sm:py-28">
        {section.eyebrow ? <p className="text-sm font-semibold uppercase tracking-wide text-brand-600">{section.eyebrow}</p> : null}
        <h1 id={headingId} className="mx-auto mt-3 max-w-3xl text-4xl font-extrabold tracking-tight text-slate-900 sm:text-5xl">
          {section.title}
        </h1>
        {section.subtitle ? <p className="mx-auto mt-6 max-w-2xl text-lg text-slate-600">{section.subtitle}</p> : null}
        {section.lastUpdated ? (
          <p className="mt-6 text-sm text-slate-600" data-testid="last-updated">
            {context.settings.labels.lastUpdated}{' '}
            <time dateTime={section.lastUpdated}>{formatDate(section.lastUpdated)}</time>
          </p>
        ) : null}
      </Container>
    </section>
  )
}

/** "23 November 2026": unambiguous in every English-speaking country. Dates are plain days (no time zone shift). */
export function formatDate(isoDate: string): string {
  return new Intl.DateTimeFormat('en-GB', { day: 'numeric', month: 'long', year: 'numeric', timeZone: 'UTC' }).format(new Date(`${isoDate}T00:00:00Z`))
}
