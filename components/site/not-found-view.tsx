import { getNotFoundPage } from '@/lib/content'
import { DEFAULT_LANGUAGE, localizePath } from '@/lib/i18n/languages'
import { Container } from '@/components/ui/container'
import { ButtonLink } from '@/components/ui/button'
import { NotFoundLogger } from './not-found-logger'

/** The CMS 404 page's body: for unmatched URLs (app/global-not-found.tsx) and unknown page slugs (the pages route). */
export async function NotFoundView({ language = DEFAULT_LANGUAGE }: { language?: string }) {
  const page = await getNotFoundPage(language)
  return (
    <>
      <NotFoundLogger />
      <Container className="flex min-h-[60vh] flex-col items-center justify-center py-24 text-center">
        <p className="text-6xl font-extrabold text-brand-600">404</p>
        <h1 className="mt-4 text-3xl font-bold tracking-tight text-slate-900 sm:text-4xl">{page.title}</h1>
        <p className="mt-4 max-w-md text-lg text-slate-600">{page.text}</p>
        <ButtonLink href={localizePath('/', language)} size="lg" className="mt-10">
          {page.homeLabel}
        </ButtonLink>
      </Container>
    </>
  )
}
