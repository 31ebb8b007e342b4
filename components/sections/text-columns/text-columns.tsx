import { cn } from '@/lib/cn'
import { Container } from '@/components/ui/container'
import type { SectionProps } from '../types'

/** Titled texts side by side (the about page's mission and vision); each is its own landmark-free section. */
export function TextColumns({ section, headingId }: SectionProps<'textColumnsSection'>) {
  return (
    <Container
      id={section.anchorId ?? undefined}
      className={cn('grid gap-12 py-16', section.columns.length === 2 && 'md:grid-cols-2', section.columns.length === 3 && 'md:grid-cols-3')}
    >
      {section.columns.map((column, index) => (
        <section key={column._key} aria-labelledby={`${headingId}-${index}`}>
          <h2 id={`${headingId}-${index}`} className="text-2xl font-bold text-slate-900">
            {column.title}
          </h2>
          <p className="mt-4 leading-relaxed text-slate-600">{column.body}</p>
        </section>
      ))}
    </Container>
  )
}
