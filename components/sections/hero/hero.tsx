import { Check } from 'lucide'
import { SvgIcon } from '@/components/ui/svg-icon'
import { Container } from '@/components/ui/container'
import { buttonVariants } from '@/components/ui/button'
import { DemoToggleButton } from '@/components/demo/demo-toggle-button'
import { trackOn } from '@/lib/analytics/events'
import { cn } from '@/lib/cn'
import type { SectionProps } from '../types'
import { ConversationPicture } from './conversation-picture'

export function Hero({ section: hero, headingId, context }: SectionProps<'heroSection'>) {
  // With a product picture: text and picture side by side on wide screens, the words first (they are the LCP),
  // top-aligned so the buttons stay in the first screen of a laptop however tall the picture is.
  const pictured = hero.visual !== null
  return (
    <section id={hero.anchorId ?? undefined} aria-labelledby={headingId} className="relative overflow-hidden bg-gradient-to-b from-brand-50 to-white">
      <Container className={cn('py-20 text-center sm:py-28', pictured && 'grid gap-12 lg:grid-cols-[1.1fr_1fr] lg:items-start lg:gap-16 lg:py-20')}>
        <div className={cn(pictured && 'lg:text-left')}>
          {hero.badge ? (
            <p className="inline-flex items-center rounded-full border border-brand-200 bg-white px-3 py-1 text-sm font-medium text-brand-700">{hero.badge}</p>
          ) : null}
          <h1
            id={headingId}
            className={cn('mx-auto mt-6 max-w-4xl text-4xl font-extrabold tracking-tight text-slate-900 sm:text-6xl', pictured && 'lg:mx-0 lg:text-5xl xl:text-6xl')}
          >
            {hero.title}
            {hero.titleHighlight ? (
              <>
                {' '}
                <span className="text-brand-600">{hero.titleHighlight}</span>
              </>
            ) : null}
          </h1>
          <p className={cn('mx-auto mt-6 max-w-2xl text-lg text-slate-600 sm:text-xl', pictured && 'lg:mx-0')}>{hero.subtitle}</p>
          <div className={cn('mt-10 flex flex-col justify-center gap-3 sm:flex-row', pictured && 'lg:justify-start')}>
            <a href="/waitlist" className={buttonVariants({ size: 'lg' })} {...trackOn('start_free_trial_click', { button_location: 'hero' })}>
              {hero.primaryCtaLabel}
            </a>
            <DemoToggleButton location="hero" className={buttonVariants({ variant: 'secondary', size: 'lg' })}>
              {hero.secondaryCtaLabel}
            </DemoToggleButton>
          </div>
          <ul className={cn('mt-8 flex flex-wrap justify-center gap-x-6 gap-y-2 text-sm text-slate-600', pictured && 'lg:justify-start')}>
            {hero.highlights.map((highlight) => (
              <li key={highlight} className="inline-flex items-center gap-1.5">
                <SvgIcon icon={Check} className="size-4 text-emerald-600" />
                {highlight}
              </li>
            ))}
          </ul>
          {hero.socialProof ? <p className="mt-6 text-sm font-medium text-slate-500">{hero.socialProof}</p> : null}
        </div>
        {hero.visual ? (
          <ConversationPicture
            conversation={hero.visual}
            copy={context.settings.demoWidget}
            sender={context.settings.siteName}
            caption={hero.visualCaption}
            id={`${headingId}-visual`}
          />
        ) : null}
      </Container>
    </section>
  )
}
