/**
 * The question most tests of the questions at sign-up ask: a role, one choice, in English and
 * German, as the site's server publishes it (sanity/questions/rules.ts, PublishedQuestion). A test
 * that needs it required, or more options, spreads it.
 */
import type { PublishedQuestion } from '@/sanity/questions/rules'

export const ROLE_QUESTION: PublishedQuestion = {
  key: 'role',
  kind: 'one',
  required: false,
  labels: { en: 'What is your role?', de: 'Was ist Ihre Rolle?' },
  options: [
    { key: 'product-manager', labels: { en: 'Product manager', de: 'Produktmanagerin' } },
    { key: 'founder', labels: { en: 'Founder', de: 'Gründerin' } },
  ],
}
