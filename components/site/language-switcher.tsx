'use client'

import { useSyncExternalStore } from 'react'
import { languageTag, localizePath, type SiteLanguage } from '@/lib/i18n/languages'

/** The head's hreflang alternates as "code path" lines: a string, so React compares snapshots by value. */
function readAlternates(): string {
  return [...document.head.querySelectorAll<HTMLLinkElement>('link[rel="alternate"][hreflang]')]
    .filter((link) => link.hreflang.toLowerCase() !== 'x-default')
    .map((link) => `${link.hreflang.toLowerCase()} ${new URL(link.href).pathname}`)
    .join('\n')
}

// The head of a static page does not change while it is open: nothing to subscribe to.
const noSubscription = () => () => {}

/**
 * The footer's languages. Each link leads to that language's home page in the server's HTML (the
 * nearest translation of any page, and where it leads without JavaScript); once the page runs, it
 * leads to the same page in that language wherever the page's head names one (its hreflang
 * alternates, lib/metadata.ts), so the switcher and search engines read the same list.
 */
export function LanguageSwitcher({ languages, current, label }: { languages: SiteLanguage[]; current: string; label: string }) {
  const alternates = useSyncExternalStore(noSubscription, readAlternates, () => '')
  if (languages.length < 2) return null
  const targets = new Map(alternates.split('\n').map((line) => line.split(' ') as [string, string]))
  return (
    <nav aria-label={label}>
      <ul className="flex flex-wrap gap-x-4 gap-y-2 text-sm">
        {languages.map((language) => (
          <li key={language.code}>
            <a
              href={targets.get(languageTag(language.code).toLowerCase()) ?? localizePath('/', language.code)}
              hrefLang={languageTag(language.code)}
              lang={languageTag(language.code)}
              aria-current={language.code === current ? 'true' : undefined}
              className="text-slate-400 transition-colors hover:text-white aria-[current]:font-semibold aria-[current]:text-white"
            >
              {language.title}
            </a>
          </li>
        ))}
      </ul>
    </nav>
  )
}
