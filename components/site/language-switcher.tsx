import { languageTag, type SiteLanguage } from '@/lib/i18n/languages'

/**
 * The footer's languages. Each link asks the server for the page the visitor is on in that language
 * (app/api/language/[code], components/site/language-switch.ts): the same page where it is
 * translated, else that language's home page. No JavaScript in the page, with or without it.
 */
export function LanguageSwitcher({ languages, current, label }: { languages: SiteLanguage[]; current: string; label: string }) {
  if (languages.length < 2) return null
  return (
    <nav aria-label={label}>
      <ul className="flex flex-wrap gap-x-4 gap-y-2 text-sm">
        {languages.map((language) => (
          <li key={language.code}>
            <a
              href={`/api/language/${language.code}`}
              hrefLang={languageTag(language.code)}
              lang={languageTag(language.code)}
              rel="nofollow"
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
