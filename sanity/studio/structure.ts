import type { StructureResolver } from 'sanity/structure'
import { SINGLETONS } from '../schemaTypes'

/** Each fixed page is one entry that opens its single document; pages, redirects, posts, authors, categories, pricing tiers and demo conversations are lists. */
export const structure: StructureResolver = (S) =>
  S.list()
    .title('Content')
    .items([
      ...SINGLETONS.map(({ type, title }) =>
        S.listItem().title(title).id(type).child(S.document().schemaType(type).documentId(type).title(title)),
      ),
      S.divider(),
      S.listItem()
        .title('Pages')
        .id('page')
        .child(S.documentTypeList('page').title('Pages').defaultOrdering([{ field: 'title', direction: 'asc' }])),
      S.listItem()
        .title('Redirects')
        .id('redirect')
        .child(S.documentTypeList('redirect').title('Redirects').defaultOrdering([{ field: 'source', direction: 'asc' }])),
      S.divider(),
      S.listItem()
        .title('Posts')
        .id('post')
        .child(S.documentTypeList('post').title('Posts').defaultOrdering([{ field: 'publishedAt', direction: 'desc' }])),
      S.listItem()
        .title('Authors')
        .id('person')
        .child(S.documentTypeList('person').title('Authors').defaultOrdering([{ field: 'name', direction: 'asc' }])),
      S.listItem()
        .title('Categories')
        .id('category')
        .child(S.documentTypeList('category').title('Categories').defaultOrdering([{ field: 'title', direction: 'asc' }])),
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
        .child(S.documentTypeList('demoConversation').title('Demo conversations').defaultOrdering([{ field: 'title', direction: 'asc' }])),
    ])
