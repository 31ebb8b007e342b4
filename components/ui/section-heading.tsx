import type { Heading } from '@/sanity/content'
import { cn } from '@/lib/cn'

export function SectionHeading({ heading, id, className, inverted = false }: { heading: Heading; id: string; className?: string; inverted?: boolean }) {
  return (
    <div className={cn('mx-auto max-w-2xl text-center', className)}>
      {heading.eyebrow ? (
        <p className={cn('text-sm font-semibold uppercase tracking-wide', inverted ? 'text-brand-100' : 'text-brand-600')}>{heading.eyebrow}</p>
      ) : null}
      <h2 id={id} className={cn('mt-2 text-3xl font-bold tracking-tight sm:text-4xl', inverted ? 'text-white' : 'text-slate-900')}>
        {heading.title}
      </h2>
      {heading.subtitle ? <p className={cn('mt-4 text-lg', inverted ? 'text-brand-100' : 'text-slate-600')}>{heading.subtitle}</p> : null}
    </div>
  )
}
