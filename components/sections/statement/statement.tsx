import { Container } from '@/components/ui/container'
import type { SectionProps } from '../types'

export function Statement({ section, headingId }: SectionProps<'statementSection'>) {
  return (
    <section id={section.anchorId ?? undefined} aria-labelledby={headingId} className="py-20">
      <Container className="max-w-3xl text-center">
        <h2 id={headingId} className="text-3xl font-bold text-slate-900">
          {section.title}
        </h2>
        <p className="mt-4 text-lg leading-relaxed text-slate-600">{section.body}</p>
      </Container>
    </section>
  )
}
