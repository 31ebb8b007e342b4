import { Container } from '@/components/ui/container'
import { SanityImage } from '@/components/ui/sanity-image'
import { SampleTag } from '@/components/ui/sample-tag'
import type { SectionProps } from '../types'

export function Statement({ section, headingId, context }: SectionProps<'statementSection'>) {
  return (
    <section id={section.anchorId ?? undefined} aria-labelledby={headingId} className="py-20">
      <Container className="max-w-3xl text-center">
        <h2 id={headingId} className="text-3xl font-bold text-slate-900">
          {section.title}
        </h2>
        <p className="mt-4 text-lg leading-relaxed text-slate-600">{section.body}</p>
      </Container>
      {section.image?.asset ? (
        <Container className="mt-12 max-w-5xl">
          <figure className="relative">
            <SanityImage image={section.image} sizes="(min-width: 1024px) 1024px, 100vw" className="w-full rounded-2xl" />
            {section.image.isSample ? (
              <figcaption className="absolute right-3 top-3">
                <SampleTag label={context.settings.labels.sample} />
              </figcaption>
            ) : null}
          </figure>
        </Container>
      ) : null}
    </section>
  )
}
