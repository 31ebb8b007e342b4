import { localizePath } from '@/lib/i18n/languages'

/** Where the search page is in a language: the header's link, the form's action, its canonical address. */
export const searchPath = (language: string) => localizePath('/search', language)
