import { ArrowLeft, CircleCheck } from 'lucide'
import { SvgIcon } from '@/components/ui/svg-icon'
import { CheckList } from '@/components/ui/check-list'
import type { WaitlistPage } from '@/sanity/content'
import { waitlistBackend } from '@/lib/env'
import { Container } from '@/components/ui/container'
import { ButtonLink } from '@/components/ui/button'
import { WaitlistFlow } from './waitlist-flow'
import { WaitlistForm } from './waitlist-form'
import { localizePath } from '@/lib/i18n/languages'

export function WaitlistPageView({ page }: { page: WaitlistPage }) {
  const home = localizePath('/', page.language)
  return (
    <div className="bg-gradient-to-b from-brand-50 to-white">
      <Container className="py-10 sm:py-16">
        <WaitlistFlow confirmation={page.confirmation} messages={page.messages} homeHref={home}>
          <ButtonLink href={home} variant="ghost" size="sm">
            <SvgIcon icon={ArrowLeft} className="size-4" />
            {page.backLabel}
          </ButtonLink>
          <div className="mt-8 grid items-start gap-12 lg:grid-cols-2">
            <div>
              {page.badge ? (
                <p className="inline-flex rounded-full border border-brand-200 bg-white px-3 py-1 text-sm font-medium text-brand-700">{page.badge}</p>
              ) : null}
              <h1 className="mt-6 text-4xl font-extrabold tracking-tight text-slate-900 sm:text-5xl">{page.title}</h1>
              <p className="mt-6 text-lg text-slate-600">{page.intro}</p>
              <h2 className="mt-10 text-lg font-semibold text-slate-900">{page.benefitsTitle}</h2>
              <CheckList items={page.benefits} icon={CircleCheck} className="mt-4" itemClassName="gap-3" />
            </div>
            <WaitlistForm copy={page.form} backend={waitlistBackend()} language={page.language} questions={page.questions} />
          </div>
        </WaitlistFlow>
      </Container>
    </div>
  )
}
