import { ChevronDown } from 'lucide'
import { SvgIcon } from '@/components/ui/svg-icon'
import { Container } from '@/components/ui/container'
import { SectionHeading } from '@/components/ui/section-heading'
import type { SectionProps } from '../types'

/** Native <details> disclosures: keyboard and screen-reader support with no JavaScript. */
export function Faq({ section: faq, headingId }: SectionProps<'faqSection'>) {
  return (
    <section id={faq.anchorId ?? undefined} aria-labelledby={headingId} className="bg-slate-50 py-20 sm:py-24">
      <Container className="max-w-3xl">
        <SectionHeading id={headingId} heading={faq} />
        <div className="mt-12 divide-y divide-slate-200 rounded-2xl border border-slate-200 bg-white">
          {faq.items.map((item) => (
            <details key={item._key} className="group px-6 py-5">
              <summary className="flex cursor-pointer list-none items-center justify-between gap-4 font-semibold text-slate-900 [&::-webkit-details-marker]:hidden">
                <h3>{item.question}</h3>
                <SvgIcon icon={ChevronDown} className="size-5 shrink-0 text-slate-500 transition-transform group-open:rotate-180" />
              </summary>
              <p className="mt-3 text-slate-600">{item.answer}</p>
            </details>
          ))}
        </div>
      </Container>
    </section>
  )
}
