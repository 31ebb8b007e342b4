import { buttonVariants } from '@/components/ui/button'
import { CheckList } from '@/components/ui/check-list'
import { Container } from '@/components/ui/container'
import { DemoToggleButton } from '@/components/demo/demo-toggle-button'
import { StartTrialLink } from '@/components/waitlist/start-trial-link'
import { cn } from '@/lib/cn'
import type { SectionProps } from '../types'
import { ConversationPicture } from './conversation-picture'

export function Hero({ section: hero, headingId, titleLevel, context }: SectionProps<'heroSection'>) {
  // With a product picture: text and picture side by side on wide screens, the words first (they are the LCP),
  // top-aligned so the buttons stay in the first screen of a laptop however tall the picture is.
  const pictured = hero.visual !== null
  const Heading = titleLevel === 1 ? 'h1' : 'h2'
  return (
    <section id={hero.anchorId ?? undefined} aria-labelledby={headingId} className="relative overflow-hidden bg-gradient-to-b from-brand-50 to-white">
      <Container
        className={cn('py-20 text-center sm:py-28', pictured && 'grid gap-12 lg:grid-cols-[minmax(0,1.1fr)_minmax(0,1fr)] lg:items-start lg:gap-16 lg:py-20')}
      >
        <div className={cn(pictured && 'lg:text-left')}>
          {hero.badge ? (
            <p className="inline-flex items-center rounded-full border border-brand-200 bg-white px-3 py-1 text-sm font-medium text-brand-700">{hero.badge}</p>
          ) : null}
          <Heading
            id={headingId}
            className={cn(
              'mx-auto mt-6 max-w-4xl text-4xl font-extrabold tracking-tight text-slate-900 sm:text-6xl',
              pictured && 'lg:mx-0 lg:text-5xl xl:text-6xl',
            )}
          >
            {hero.title}
            {hero.titleHighlight ? (
              <>
                {' '}
                <span className="text-brand-600">{hero.titleHighlight}</span>
              </>
            ) : null}
          </Heading>
          <p className={cn('mx-auto mt-6 max-w-2xl text-lg text-slate-600 sm:text-xl', pictured && 'lg:mx-0')}>{hero.subtitle}</p>
          <div className={cn('mt-10 flex flex-col justify-center gap-3 sm:flex-row', pictured && 'lg:justify-start')}>
            <StartTrialLink location="hero" language={context.settings.language} size="lg">
              {hero.primaryCtaLabel}
            </StartTrialLink>
            <DemoToggleButton location="hero" className={buttonVariants({ variant: 'secondary', size: 'lg' })}>
              {hero.secondaryCtaLabel}
            </DemoToggleButton>
          </div>
          <CheckList layout="inline" items={hero.highlights} className={cn('mt-8 justify-center', pictured && 'lg:justify-start')} />
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
