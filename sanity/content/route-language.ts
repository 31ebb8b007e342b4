import 'server-only'
import { notFound } from 'next/navigation'
import { getSiteLanguages } from '@/sanity/content'
import { VARIANT_SEGMENT_SEPARATOR } from '@/lib/i18n/languages'

// Every page lives under app/(site)/[lang]: English at its unprefixed addresses through proxy.ts's
// rewrite to /en/…, every other language at /<code>/… as requested. A language nobody configured
// is a 404, like any address the content does not answer.

export type LanguageParams = { params: Promise<{ lang: string }> }

/** The language a route renders in, or the 404 for a code the site does not speak. */
export async function routeLanguage(params: Promise<{ lang: string }>): Promise<string> {
  const lang = (await params).lang.split(VARIANT_SEGMENT_SEPARATOR)[0]!
  if (!(await getSiteLanguages()).some((language) => language.code === lang)) notFound()
  return lang
}

/** Every language the site speaks, as the [lang] segment's prerendered values. */
export async function languageParams(): Promise<{ lang: string }[]> {
  return (await getSiteLanguages()).map((language) => ({ lang: language.code }))
}
