import { Quote } from 'lucide'
import { SvgIcon } from '@/components/ui/svg-icon'
import type { LandingPage } from '@/lib/content'
import { cn } from '@/lib/cn'
import { Container } from '@/components/ui/container'
import { SectionHeading } from '@/components/ui/section-heading'
import { buttonVariants } from '@/components/ui/button'
import { DemoToggleButton } from '@/components/demo/demo-toggle-button'
import { SampleTag } from './logo-strip'
import { trackOn } from '@/lib/analytics/events'

export function ClosingCta({ cta, sampleLabel }: { cta: LandingPage['cta']; sampleLabel: string }) {
  const { testimonial } = cta
  return (
    <section aria-labelledby="cta-title" className="bg-brand-700 py-20 sm:py-24">
      <Container>
        <SectionHeading id="cta-title" heading={cta} inverted />
        <div className="mt-10 flex flex-col justify-center gap-3 sm:flex-row">
          <a href="/waitlist" className={buttonVariants({ variant: 'inverted', size: 'lg' })} {...trackOn('start_free_trial_click', { button_location: 'cta' })}>
            {cta.primaryCtaLabel}
          </a>
          <DemoToggleButton location="cta" className={buttonVariants({ variant: 'outlineInverted', size: 'lg' })}>
            {cta.secondaryCtaLabel}
          </DemoToggleButton>
        </div>
        <figure className="mx-auto mt-14 max-w-2xl rounded-2xl bg-white/10 p-8 text-white">
          <SvgIcon icon={Quote} className="size-8 text-brand-200" />
          <blockquote className="mt-4 text-lg leading-relaxed">{testimonial.quote}</blockquote>
          <figcaption className={cn('mt-6 text-sm text-brand-100')}>
            <span className="font-semibold text-white">{testimonial.author}</span>, {testimonial.role}
            {testimonial.isSample ? <SampleTag label={sampleLabel} /> : null}
          </figcaption>
        </figure>
      </Container>
    </section>
  )
}
