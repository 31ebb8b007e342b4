import { readFileSync } from 'node:fs'
import type { WaitlistEmailCopy } from '@/sanity/content/types'
import type { LadderRung } from '@/sanity/rewards/ladder'

/**
 * The e-mails' words in a language as the seed writes them (the waitlist page's), as the dispatcher
 * receives them (for the load checks and the tests), with a reward ladder in that language (the
 * seed publishes none).
 */
export function seedEmailCopy(language = 'en', rewards: LadderRung[] = []): WaitlistEmailCopy {
  const file = language === 'en' ? 'waitlistPage' : `waitlistPage-${language}`
  const { email } = JSON.parse(readFileSync(`sanity/seed/documents/${file}.json`, 'utf8')) as {
    email: Omit<WaitlistEmailCopy, 'language' | 'rewards'>
  }
  return { ...email, language, rewards }
}
