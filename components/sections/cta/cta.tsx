import { Container } from '@/components/ui/container'
import { SectionHeading } from '@/components/ui/section-heading'
import { buttonVariants } from '@/components/ui/button'
import { DemoToggleButton } from '@/components/demo/demo-toggle-button'
import { StartTrialLink } from '@/components/waitlist/start-trial-link'
import { TestimonialFigure } from '../testimonial/testimonial'
import type { SectionProps } from '../types'

export function ClosingCta({ section: cta, headingId, context }: SectionProps<'ctaSection'>) {
  return (
    <section id={cta.anchorId ?? undefined} aria-labelledby={headingId} className="bg-brand-700 py-20 sm:py-24">
      <Container>
        <SectionHeading id={headingId} heading={cta} inverted />
        <div className="mt-10 flex flex-col justify-center gap-3 sm:flex-row">
          <StartTrialLink location={context.ctaLocation} language={context.settings.language} variant="inverted" size="lg">
            {cta.primaryCtaLabel}
          </StartTrialLink>
          {cta.secondaryCtaLabel ? (
            <DemoToggleButton location="cta" className={buttonVariants({ variant: 'outlineInverted', size: 'lg' })}>
              {cta.secondaryCtaLabel}
            </DemoToggleButton>
          ) : null}
        </div>
        {cta.testimonial ? (
          <div className="mt-14">
            <TestimonialFigure testimonial={cta.testimonial} sampleLabel={context.settings.labels.sample} inverted />
          </div>
        ) : null}
      </Container>
    </section>
  )
}
