import { readFileSync } from 'node:fs'
import type { WaitlistEmailCopy } from '@/sanity/content/types'

/** The e-mails' words in a language as the seed writes them (for the load checks and the tests) (the waitlist page's), as the dispatcher receives them. */
export function seedEmailCopy(language = 'en'): WaitlistEmailCopy {
  const file = language === 'en' ? 'waitlistPage' : `waitlistPage-${language}`
  const { email } = JSON.parse(readFileSync(`sanity/seed/documents/${file}.json`, 'utf8')) as { email: Omit<WaitlistEmailCopy, 'language'> }
  return { ...email, language }
}
