import type { PricingTier } from '@/sanity/content'
import { cn } from '@/lib/cn'
import { Button } from '@/components/ui/button'
import { CheckList } from '@/components/ui/check-list'
import { Container } from '@/components/ui/container'
import { SectionHeading } from '@/components/ui/section-heading'
import { StartTrialLink } from '@/components/waitlist/start-trial-link'
import type { SectionProps } from '../types'

export function Pricing({ section: pricing, headingId, context }: SectionProps<'pricingSection'>) {
  const { language } = context.settings
  return (
    <section id={pricing.anchorId ?? undefined} aria-labelledby={headingId} className="py-20 sm:py-24">
      <Container>
        <SectionHeading id={headingId} heading={pricing} />
        <ul className="mx-auto mt-12 grid max-w-4xl gap-6 md:grid-cols-2">
          {pricing.tiers.map((tier) => (
            <li key={tier.id}>
              <TierCard tier={tier} language={language} />
            </li>
          ))}
        </ul>
        {pricing.footnote ? <p className="mt-8 text-center text-sm text-slate-500">{pricing.footnote}</p> : null}
        <p className="mt-4 text-center">
          <StartTrialLink
            location="pricing_cta"
            language={language}
            appearance="text"
            className="font-semibold text-brand-700 underline-offset-4 hover:underline"
          >
            {pricing.ctaLabel} <span aria-hidden="true">→</span>
          </StartTrialLink>
        </p>
      </Container>
    </section>
  )
}

function TierCard({ tier, language }: { tier: PricingTier; language: string }) {
  const headingId = `tier-${tier.id}`
  return (
    <article
      aria-labelledby={headingId}
      data-tier={tier.name}
      className={cn(
        'relative flex h-full flex-col rounded-2xl border bg-white p-6 sm:p-8',
        tier.highlightLabel ? 'border-brand-600 shadow-xl ring-1 ring-brand-600' : 'border-slate-200 shadow-sm',
        !tier.available && 'bg-slate-50',
      )}
    >
      {tier.highlightLabel ? (
        <p className="absolute -top-3 left-6 rounded-full bg-brand-600 px-3 py-1 text-xs font-semibold text-white sm:left-8">{tier.highlightLabel}</p>
      ) : null}
      <h3 id={headingId} className="text-xl font-semibold text-slate-900">
        {tier.name}
      </h3>
      <p className="mt-2 text-sm text-slate-600">{tier.description}</p>
      {/* A one-word price ("Kostenlos") cannot wrap, so on a phone it gets a smaller size and, with wide text
          spacing, may still break anywhere rather than push the page sideways. */}
      <p className="mt-6 flex flex-wrap items-baseline gap-x-1">
        <span className="min-w-0 text-4xl font-extrabold tracking-tight text-slate-900 [overflow-wrap:anywhere] sm:text-5xl" data-testid="tier-price">
          {tier.price}
        </span>
        {tier.interval ? <span className="text-base font-medium text-slate-500">{tier.interval}</span> : null}
      </p>
      {tier.terms.length > 0 ? <p className="mt-2 text-sm text-slate-600">{tier.terms.join(' · ')}</p> : null}
      <p className="mt-6 font-medium text-slate-900">{tier.insights}</p>
      {tier.overageNote ? <p className="mt-1 text-sm text-slate-500">{tier.overageNote}</p> : null}
      <CheckList items={tier.features} className="mt-6 flex-1" />
      {tier.available ? (
        <StartTrialLink location="pricing" language={language} size="lg" className="mt-8 w-full">
          {tier.ctaLabel}
        </StartTrialLink>
      ) : (
        <Button disabled variant="secondary" size="lg" className="mt-8 w-full">
          {tier.ctaLabel}
        </Button>
      )}
    </article>
  )
}
