import { Container } from '@/components/ui/container'
import { SanityImage } from '@/components/ui/sanity-image'
import { SectionHeading } from '@/components/ui/section-heading'
import { cn } from '@/lib/cn'
import type { SectionProps } from '../types'

/** How it works: numbered steps side by side on wide screens, one under another on phones. */
export function Steps({ section, headingId }: SectionProps<'stepsSection'>) {
  const count = section.steps.length
  return (
    <section id={section.anchorId ?? undefined} aria-labelledby={headingId} className="py-20 sm:py-24">
      <Container>
        <SectionHeading id={headingId} heading={section} />
        <ol
          className={cn(
            'mt-12 grid gap-8 md:gap-6',
            count === 2 && 'md:grid-cols-2',
            count === 3 && 'md:grid-cols-3',
            count >= 4 && 'md:grid-cols-2 lg:grid-cols-4',
          )}
        >
          {section.steps.map((step, index) => (
            <li key={step._key} className="relative rounded-2xl border border-slate-200 bg-white p-6 shadow-sm">
              <SanityImage image={step.image} sizes="(min-width: 768px) 33vw, 100vw" className="mb-6 w-full rounded-xl" />
              {/* The number is the list's own (an <ol>); drawn large for the eye only. */}
              <span aria-hidden="true" className="grid size-10 place-items-center rounded-full bg-brand-600 text-base font-bold text-white">
                {index + 1}
              </span>
              <h3 className="mt-4 text-lg font-semibold text-slate-900">{step.title}</h3>
              <p className="mt-2 text-slate-600">{step.text}</p>
            </li>
          ))}
        </ol>
      </Container>
    </section>
  )
}
