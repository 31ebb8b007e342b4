import { getNotFoundPage } from '@/sanity/content'
import { DEFAULT_LANGUAGE, localizePath } from '@/lib/i18n/languages'
import { Container } from '@/components/ui/container'
import { ButtonLink } from '@/components/ui/button'

// Leaves the missing path in the console, where a developer following a broken link looks. An
// inline script rather than a client component: this view is the not-found boundary of the pages
// route, so a component's chunk would load with every page of that route, found or not.
const LOG_MISSING_PATH = 'console.error("404 Error: User attempted to access non-existent route:",location.pathname)'

/** The CMS 404 page's body: for unmatched URLs (app/global-not-found.tsx) and unknown page slugs (the pages route). */
export async function NotFoundView({ language = DEFAULT_LANGUAGE }: { language?: string }) {
  const page = await getNotFoundPage(language)
  return (
    <>
      <script dangerouslySetInnerHTML={{ __html: LOG_MISSING_PATH }} />
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
