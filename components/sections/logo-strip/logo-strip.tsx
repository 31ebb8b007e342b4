import { Container } from '@/components/ui/container'
import { SanityImage } from '@/components/ui/sanity-image'
import { SampleTag } from '@/components/ui/sample-tag'
import type { SectionProps } from '../types'

export function LogoStrip({ section: logos, headingId, context }: SectionProps<'logoStripSection'>) {
  const sampleLabel = context.settings.labels.sample
  const allSample = logos.items.every((item) => item.isSample)
  return (
    <section id={logos.anchorId ?? undefined} aria-labelledby={headingId} className="border-y border-slate-100 bg-white">
      <Container className="py-10">
        <h2 id={headingId} className="text-center text-sm font-medium text-slate-500">
          {logos.title}
          {allSample ? <SampleTag label={sampleLabel} /> : null}
        </h2>
        <ul className="mt-6 flex flex-wrap items-center justify-center gap-x-10 gap-y-4">
          {logos.items.map((logo) => (
            <li key={logo._key} className="inline-flex items-center text-lg font-semibold tracking-tight text-slate-500">
              {/* The logo when there is one (its alternative text is the name), else the name. */}
              {logo.logo?.asset ? <SanityImage image={logo.logo} alt={logo.name} sizes="160px" className="h-8 w-auto bg-transparent" /> : logo.name}
              {logo.isSample && !allSample ? <SampleTag label={sampleLabel} /> : null}
            </li>
          ))}
        </ul>
      </Container>
    </section>
  )
}
