import { cn } from '@/lib/cn'
import { Container } from '@/components/ui/container'
import { SectionHeading } from '@/components/ui/section-heading'
import type { SectionProps } from '../types'
import { CardGrid } from './card-grid'
import { FeatureRows } from './feature-rows'

/** A heading over icon cards (features, audiences, values), or over rows of text beside pictures. */
export function CardGridSection({ section, headingId }: SectionProps<'cardGridSection'>) {
  return (
    <section id={section.anchorId ?? undefined} aria-labelledby={headingId} className={cn('py-20 sm:py-24', section.tinted && 'bg-slate-50')}>
      <Container>
        <SectionHeading id={headingId} heading={section} />
        {section.layout === 'rows' ? <FeatureRows items={section.items} /> : <CardGrid items={section.items} columns={section.columns} />}
      </Container>
    </section>
  )
}
