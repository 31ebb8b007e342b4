import { Quote } from 'lucide'
import { SvgIcon } from '@/components/ui/svg-icon'
import type { SectionOf } from '@/sanity/content'
import { cn } from '@/lib/cn'
import { Container } from '@/components/ui/container'
import { SanityImage } from '@/components/ui/sanity-image'
import { SampleTag } from '@/components/ui/sample-tag'
import type { SectionProps } from '../types'

type Quoted = Pick<SectionOf<'testimonialSection'>, 'quote' | 'author' | 'role' | 'isSample' | 'photo'>

/** The quote card; on the brand colour inside the closing call to action, on white on its own. */
export function TestimonialFigure({ testimonial, sampleLabel, inverted = false }: { testimonial: Quoted; sampleLabel: string; inverted?: boolean }) {
  return (
    <figure
      className={cn('mx-auto max-w-2xl rounded-2xl p-8', inverted ? 'bg-white/10 text-white' : 'border border-slate-200 bg-white text-slate-900 shadow-sm')}
    >
      <SvgIcon icon={Quote} className={cn('size-8', inverted ? 'text-brand-200' : 'text-brand-600')} />
      <blockquote className="mt-4 text-lg leading-relaxed">{testimonial.quote}</blockquote>
      <figcaption className={cn('mt-6 flex items-center gap-3 text-sm', inverted ? 'text-brand-100' : 'text-slate-600')}>
        {/* The name beside it says who it is: the portrait needs no text of its own. */}
        <SanityImage image={testimonial.photo} alt="" sizes="48px" className="size-12 shrink-0 rounded-full object-cover" />
        <span>
          <span className={cn('font-semibold', inverted ? 'text-white' : 'text-slate-900')}>{testimonial.author}</span>, {testimonial.role}
          {testimonial.isSample ? <SampleTag label={sampleLabel} /> : null}
        </span>
      </figcaption>
    </figure>
  )
}

export function TestimonialSection({ section, headingId, context }: SectionProps<'testimonialSection'>) {
  return (
    <section id={section.anchorId ?? undefined} aria-labelledby={headingId} className="py-16">
      <Container>
        <h2 id={headingId} className="sr-only">
          {section.author}
        </h2>
        <TestimonialFigure testimonial={section} sampleLabel={context.settings.labels.sample} />
      </Container>
    </section>
  )
}
