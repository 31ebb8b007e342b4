import type { StructureBuilder, StructureResolver } from 'sanity/structure'
import { DEFAULT_LANGUAGE, type SiteLanguage } from '../../lib/i18n/languages'
import { MISSING_TRANSLATION } from '../fragments'
import { SINGLETONS, TRANSLATED_TYPES, UNTRANSLATED_SINGLETONS } from '../schemaTypes'
import { fixedPageTemplate, singletonId, studioLanguages } from './languages'

/**
 * Each fixed page is one entry that opens its document, one per language; pages, redirects,
 * posts, authors, categories, pricing tiers and demo conversations are lists with every language
 * in them. "Missing translations" lists, per language, the base-language documents that have no
 * translation in it yet: those are not shown in that language at all.
 */
export const structure: StructureResolver = (S, context) => {
  const languages = () => studioLanguages(context.getClient({ apiVersion: '2025-02-19' }))
  return S.list()
    .title('Content')
    .items([
      ...SINGLETONS.map(({ type, title }) =>
        S.listItem()
          .title(title)
          .id(type)
          .child(UNTRANSLATED_SINGLETONS.has(type) ? singleton(S, type, title, DEFAULT_LANGUAGE) : async () => perLanguage(S, type, title, await languages())),
      ),
      S.divider(),
      S.listItem()
        .title('Pages')
        .id('page')
        .child(
          S.documentTypeList('page')
            .title('Pages')
            .defaultOrdering([{ field: 'title', direction: 'asc' }]),
        ),
      S.listItem()
        .title('Redirects')
        .id('redirect')
        .child(
          S.documentTypeList('redirect')
            .title('Redirects')
            .defaultOrdering([{ field: 'source', direction: 'asc' }]),
        ),
      S.divider(),
      S.listItem()
        .title('Posts')
        .id('post')
        .child(
          S.documentTypeList('post')
            .title('Posts')
            .defaultOrdering([{ field: 'publishedAt', direction: 'desc' }]),
        ),
      S.listItem()
        .title('Authors')
        .id('person')
        .child(
          S.documentTypeList('person')
            .title('Authors')
            .defaultOrdering([{ field: 'name', direction: 'asc' }]),
        ),
      S.listItem()
        .title('Categories')
        .id('category')
        .child(
          S.documentTypeList('category')
            .title('Categories')
            .defaultOrdering([{ field: 'title', direction: 'asc' }]),
        ),
      S.divider(),
      S.listItem()
        .title('Pricing tiers')
        .id('pricingTier')
        .child(
          S.documentTypeList('pricingTier')
            .title('Pricing tiers')
            .defaultOrdering([{ field: 'price', direction: 'asc' }]),
        ),
      S.listItem()
        .title('Demo conversations')
        .id('demoConversation')
        .child(
          S.documentTypeList('demoConversation')
            .title('Demo conversations')
            .defaultOrdering([{ field: 'title', direction: 'asc' }]),
        ),
      S.divider(),
      S.listItem()
        .title('Experiments')
        .id('experiment')
        .child(
          S.documentTypeList('experiment')
            .title('Experiments')
            .defaultOrdering([{ field: 'title', direction: 'asc' }]),
        ),
      S.listItem()
        .title('Campaign versions')
        .id('campaign')
        .child(
          S.documentTypeList('campaign')
            .title('Campaign versions')
            .defaultOrdering([{ field: 'title', direction: 'asc' }]),
        ),
      S.divider(),
      S.listItem()
        .title('Missing translations')
        .id('missing-translations')
        .child(async () => missingTranslations(S, await languages())),
    ])
}

function singleton(S: StructureBuilder, type: string, title: string, language: string) {
  const document = S.document().schemaType(type).documentId(singletonId(type, language)).title(title)
  // A fixed page not yet written in this language starts with its language set.
  return UNTRANSLATED_SINGLETONS.has(type) ? document : document.initialValueTemplate(fixedPageTemplate(type), { language })
}

/**
 * Each language's item carries its document's id: an edit link (an intent) is sent to the ids of
 * the items above the document with the document's own id last, so only then does it lead back to
 * the document (tests/unit/studio-structure.test.ts).
 */
function perLanguage(S: StructureBuilder, type: string, title: string, languages: SiteLanguage[]) {
  return S.list()
    .title(title)
    .items(
      languages.map((language) =>
        S.listItem()
          .title(language.title)
          .id(singletonId(type, language.code))
          .child(singleton(S, type, `${title} (${language.title})`, language.code)),
      ),
    )
}

function missingTranslations(S: StructureBuilder, languages: SiteLanguage[]) {
  const singletons = SINGLETONS.map(({ type }) => type)
  return S.list()
    .title('Missing translations')
    .items(
      languages
        .filter((language) => language.code !== DEFAULT_LANGUAGE)
        .map((language) =>
          S.listItem()
            .title(`Not yet in ${language.title}`)
            .id(language.code)
            .child(
              S.documentList()
                .title(`Not yet in ${language.title}`)
                .filter(MISSING_TRANSLATION)
                .params({ types: TRANSLATED_TYPES, singletons, base: DEFAULT_LANGUAGE, language: language.code })
                .apiVersion('2025-02-19'),
            ),
        ),
    )
}
