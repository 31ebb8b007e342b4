import type { Card, Heading } from '@/lib/content'
import { cn } from '@/lib/cn'
import { Container } from '@/components/ui/container'
import { SectionHeading } from '@/components/ui/section-heading'
import { CardGrid } from './card-grid'

type Props = { id: string; section: Heading & { items: Card[] }; columns?: 2 | 3 | 4; tinted?: boolean }

/** A heading over icon cards: the landing page's features and audiences. */
export function CardSection({ id, section, columns, tinted = false }: Props) {
  return (
    <section id={id} aria-labelledby={`${id}-title`} className={cn('py-20 sm:py-24', tinted && 'bg-slate-50')}>
      <Container>
        <SectionHeading id={`${id}-title`} heading={section} />
        <CardGrid items={section.items} columns={columns} />
      </Container>
    </section>
  )
}
