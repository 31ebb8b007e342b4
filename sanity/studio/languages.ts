import type { SanityClient } from 'sanity'
import { DEFAULT_LANGUAGE, type SiteLanguage } from '../../lib/i18n/languages'
import { SITE_LANGUAGES } from '../fragments'
import { VALIDATION_API_VERSION } from '../schemaTypes/objects/validation-client'

/** Before anyone has published the Languages document, the Studio still edits the base language. */
const BASE_ONLY: SiteLanguage[] = [{ code: DEFAULT_LANGUAGE, title: 'English' }]

/** The site's languages as the Studio reads them: the published Languages document. */
export async function studioLanguages(client: SanityClient): Promise<SiteLanguage[]> {
  const languages = await client
    .withConfig({ apiVersion: VALIDATION_API_VERSION })
    .fetch<SiteLanguage[] | null>(SITE_LANGUAGES, {}, { perspective: 'published' })
  return languages?.length ? languages : BASE_ONLY
}

/** The template a fixed page's document in a language starts from (sanity.config.ts): it sets the language. */
export const fixedPageTemplate = (type: string) => `${type}-in-language`

/** A fixed page's document in a language: the base language's keeps the type's own id (the site had no others before). */
export const singletonId = (type: string, language: string) => (language === DEFAULT_LANGUAGE ? type : `${type}-${language}`)
