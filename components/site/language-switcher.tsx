'use client'

import { useEffect, useState } from 'react'
import { languageTag, localizePath, type SiteLanguage } from '@/lib/i18n/languages'

/**
 * The footer's languages. Each link leads to that language's home page in the server's HTML (the
 * nearest translation of any page, and where it leads without JavaScript); once the page runs, it
 * leads to the same page in that language wherever the page's head names one (its hreflang
 * alternates, lib/metadata.ts), so the switcher and search engines read the same list.
 */
export function LanguageSwitcher({ languages, current, label }: { languages: SiteLanguage[]; current: string; label: string }) {
  const [targets, setTargets] = useState<Record<string, string>>({})
  useEffect(() => {
    const found: Record<string, string> = {}
    for (const link of document.head.querySelectorAll<HTMLLinkElement>('link[rel="alternate"][hreflang]')) {
      const code = link.hreflang.toLowerCase()
      if (code !== 'x-default') found[code] = new URL(link.href).pathname
    }
    setTargets(found)
  }, [])
  if (languages.length < 2) return null
  return (
    <nav aria-label={label}>
      <ul className="flex flex-wrap gap-x-4 gap-y-2 text-sm">
        {languages.map((language) => (
          <li key={language.code}>
            <a
              href={targets[language.code] ?? localizePath('/', language.code)}
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
