import { localizePath } from '@/lib/i18n/languages'
import { blocks, heading, link, list, text } from '@/lib/markdown/markdown'
import { START_TRIAL_PATH } from '@/components/waitlist/start-trial-link'
import type { SectionMarkdown } from '../markdown-types'

// The scripted demo and its button need a browser: the twin keeps the words and the waitlist link.
export const heroMarkdown: SectionMarkdown<'heroSection'> = (hero, level, { settings, siteUrl }) =>
  blocks(
    text(hero.badge),
    heading(level, [hero.title, hero.titleHighlight].filter(Boolean).join(' ')),
    text(hero.subtitle, 'lines'),
    link(hero.primaryCtaLabel, localizePath(START_TRIAL_PATH, settings.language), siteUrl),
    list(hero.highlights?.map((item) => text(item)) ?? []),
    text(hero.socialProof),
  )
