import { Check } from 'lucide'
import { SvgIcon } from '@/components/ui/svg-icon'
import { Container } from '@/components/ui/container'
import { buttonVariants } from '@/components/ui/button'
import { DemoToggleButton } from '@/components/demo/demo-toggle-button'
import { trackOn } from '@/lib/analytics/events'
import type { SectionProps } from '../types'

export function Hero({ section: hero, headingId }: SectionProps<'heroSection'>) {
  return (
    <section id={hero.anchorId ?? undefined} aria-labelledby={headingId} className="relative overflow-hidden bg-gradient-to-b from-brand-50 to-white">
      <Container className="py-20 text-center sm:py-28">
        {hero.badge ? (
          <p className="inline-flex items-center rounded-full border border-brand-200 bg-white px-3 py-1 text-sm font-medium text-brand-700">{hero.badge}</p>
        ) : null}
        <h1 id={headingId} className="mx-auto mt-6 max-w-4xl text-4xl font-extrabold tracking-tight text-slate-900 sm:text-6xl">
          {hero.title}
          {hero.titleHighlight ? (
            <>
              {' '}
              <span className="text-brand-600">{hero.titleHighlight}</span>
            </>
          ) : null}
        </h1>
        <p className="mx-auto mt-6 max-w-2xl text-lg text-slate-600 sm:text-xl">{hero.subtitle}</p>
        <div className="mt-10 flex flex-col justify-center gap-3 sm:flex-row">
          <a href="/waitlist" className={buttonVariants({ size: 'lg' })} {...trackOn('start_free_trial_click', { button_location: 'hero' })}>
            {hero.primaryCtaLabel}
          </a>
          <DemoToggleButton location="hero" className={buttonVariants({ variant: 'secondary', size: 'lg' })}>
            {hero.secondaryCtaLabel}
          </DemoToggleButton>
        </div>
        <ul className="mt-8 flex flex-wrap justify-center gap-x-6 gap-y-2 text-sm text-slate-600">
          {hero.highlights.map((highlight) => (
            <li key={highlight} className="inline-flex items-center gap-1.5">
              <SvgIcon icon={Check} className="size-4 text-emerald-600" />
              {highlight}
            </li>
          ))}
        </ul>
        {hero.socialProof ? <p className="mt-6 text-sm font-medium text-slate-500">{hero.socialProof}</p> : null}
      </Container>
    </section>
  )
}
