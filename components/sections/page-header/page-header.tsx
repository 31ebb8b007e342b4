import type { ReactNode } from 'react'
import { Container } from '@/components/ui/container'
import type { SectionProps } from '../types'
import { DEFAULT_LANGUAGE, languageTag } from '@/lib/i18n/languages'

/**
 * A page's title block: its heading (the page's h1 when it opens the page, else an h2), with an
 * optional eyebrow, subtitle and a line under them. The page-header section draws it, and so does
 * the page builder for a page whose sections give no main heading.
 */
export function PageTitle({
  title,
  headingId,
  level,
  eyebrow,
  subtitle,
  children,
  id,
}: {
  title: string
  headingId: string
  level: 1 | 2
  eyebrow?: string | null
  subtitle?: string | null
  children?: ReactNode
  id?: string
}) {
  const Heading = level === 1 ? 'h1' : 'h2'
  return (
    <section id={id} aria-labelledby={headingId} className="bg-gradient-to-b from-brand-50 to-white">
      <Container className="py-20 text-center sm:py-28">
        {eyebrow ? <p className="text-sm font-semibold uppercase tracking-wide text-brand-600">{eyebrow}</p> : null}
        <Heading id={headingId} className="mx-auto mt-3 max-w-3xl text-4xl font-extrabold tracking-tight text-slate-900 sm:text-5xl">
          {title}
        </Heading>
        {subtitle ? <p className="mx-auto mt-6 max-w-2xl text-lg text-slate-600">{subtitle}</p> : null}
        {children}
      </Container>
    </section>
  )
}

/** The page-header section: the title block of about, legal and builder pages, with an optional "last updated" date. */
export function PageHeader({ section, headingId, titleLevel, context }: SectionProps<'pageHeaderSection'>) {
  return (
    <PageTitle
      id={section.anchorId ?? undefined}
      title={section.title}
      headingId={headingId}
      level={titleLevel}
      eyebrow={section.eyebrow}
      subtitle={section.subtitle}
    >
      {section.lastUpdated ? (
        <p className="mt-6 text-sm text-slate-600" data-testid="last-updated">
          {context.settings.labels.lastUpdated} <time dateTime={section.lastUpdated}>{formatDate(section.lastUpdated, context.settings.language)}</time>
        </p>
      ) : null}
    </PageTitle>
  )
}

/**
 * "23 November 2026" in English (unambiguous in every English-speaking country), "23. November
 * 2026" in German: each language's own long date. Dates are plain days (no time zone shift).
 */
export function formatDate(isoDate: string, language: string): string {
  return new Intl.DateTimeFormat(language === DEFAULT_LANGUAGE ? 'en-GB' : languageTag(language), {
    day: 'numeric',
    month: 'long',
    year: 'numeric',
    timeZone: 'UTC',
  }).format(new Date(`${isoDate}T00:00:00Z`))
}
