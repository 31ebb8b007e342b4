/**
 * The line between the product and the tools (issue #19): app/, components/, lib/, sanity/ and the
 * root configs must not import tools/, e2e/ or tests/, and `npm test`'s lint step fails when one
 * does. Linted with the project's own ESLint config, as `npm run lint` runs it.
 */
import { ESLint } from 'eslint'
import { describe, expect, it } from 'vitest'

const eslint = new ESLint({ cwd: process.cwd() })

async function boundaryErrors(filePath: string, code: string) {
  const [result] = await eslint.lintText(code, { filePath })
  return (result?.messages ?? []).filter((message) => message.ruleId === 'no-restricted-imports')
}

describe('no product file imports the tools', () => {
  const forbidden = [
    ['lib/waitlist-owner.ts', "import { LOCAL_SUPABASE_URL } from '../tools/supabase-local/keys'"],
    ['components/waitlist/list.tsx', "import { listWaitlist } from '@/tools/owner/owner'"],
    ['app/(site)/page.tsx', "import { x } from '../../tools/bench/bench'"],
    ['sanity/queries.ts', "import { E2E } from '../tools/test/e2e-env'"],
    ['next.config.ts', "import { LOCAL_REVALIDATE_SECRET } from './tools/local/local-env'"],
    ['sanity/content/fetch.ts', "export { emails } from '../../tests/helpers/email-cases'"],
    ['components/site/footer.tsx', "import type { Rows } from '@/e2e/waitlist-rows'"],
  ] as const

  it.each(forbidden)(
    '%s: %s is an error',
    async (filePath, code) => {
      const errors = await boundaryErrors(filePath, code)
      expect(errors).toHaveLength(1)
      expect(errors[0]?.severity).toBe(2)
    },
    60_000,
  )

  it('allows the product its own modules, and the tools and tests anything', async () => {
    expect(await boundaryErrors('sanity/content/fetch.ts', "import { readSeedDataset } from '../seed/dataset'")).toEqual([])
    expect(await boundaryErrors('components/waitlist/toolbar.tsx', "import { cn } from '@/lib/cn'")).toEqual([])
    expect(await boundaryErrors('tools/owner/owner.ts', "import { LOCAL_SUPABASE_URL } from '../supabase-local/keys'")).toEqual([])
    expect(await boundaryErrors('tests/unit/x.test.ts', "import { E2E } from '../../tools/test/e2e-env'")).toEqual([])
  }, 60_000)
})

describe('each layer imports only those below it (issue #53): lib/, sanity/, components/, the routes', () => {
  const backUp = [
    ['lib/content/paths.ts', "import type { Page } from '@/sanity/content/types'", /lib\/ is shared by every feature/],
    ['lib/content/paths.ts', "import { pageQuery } from '../../sanity/queries'", /lib\/ is shared by every feature/],
    ['lib/env/index.ts', "import config from '@/sanity.config'", /lib\/ is shared by every feature/],
    ['lib/content/image.ts', "import type { SectionImage } from '@/components/ui/sanity-image'", /lib\/ is shared by every feature/],
    ['lib/content/image.ts', "import type { WaitlistErrorCopy } from '../../components/waitlist/rules'", /lib\/ is shared by every feature/],
    ['lib/content/paths.ts', "import { x } from '@/app/(site)/[lang]/layout'", /lib\/ is shared by every feature/],
    ['sanity/sections/hero/schema.ts', "import { Hero } from '../../../components/sections/hero/hero'", /sanity\/ is the content model/],
    ['sanity/content/index.ts', "import { toMarkdown } from '@/components/sections/markdown'", /sanity\/ is the content model/],
    ['sanity.config.ts', "import { previews } from './components/preview/draft-preview'", /sanity\/ is the content model/],
    ['components/site/footer.tsx', "import { generateMetadata } from '@/app/(site)/[lang]/layout'", /components\/ holds the features/],
    ['components/seo/metadata.ts', "import { proxy } from '../../proxy'", /components\/ holds the features/],
  ] as const

  it.each(backUp)(
    '%s: %s is an error',
    async (filePath, code, message) => {
      const errors = await boundaryErrors(filePath, code)
      expect(errors).toHaveLength(1)
      expect(errors[0]?.message).toMatch(message)
    },
    60_000,
  )

  it('lets each layer import those below it, and still forbids the tools', async () => {
    expect(await boundaryErrors('lib/content/paths.ts', "import { DEFAULT_LANGUAGE } from '../i18n/languages'")).toEqual([])
    expect(await boundaryErrors('lib/content/paths.ts', "import { x } from '../../tools/bench/bench'")).toHaveLength(1)
    expect(await boundaryErrors('sanity/sections/hero/schema.ts', "import { stringField } from '../../schemaTypes/objects/fields'")).toEqual([])
    expect(await boundaryErrors('sanity/schemaTypes/objects/link.ts', "import { plainTextRule } from '../../../lib/content/plain-text'")).toEqual([])
    expect(await boundaryErrors('sanity/content/fetch.ts', "import { evaluateQuery } from '@/sanity/seed/dataset'")).toEqual([])
    expect(await boundaryErrors('sanity.config.ts', "import { schemaTypes } from './sanity/schemaTypes'")).toEqual([])
    expect(await boundaryErrors('components/sections/hero/hero.tsx', "import type { SectionOf } from '@/sanity/content'")).toEqual([])
    expect(await boundaryErrors('components/blog/feed.ts', "import { sanityImageAttributes } from '@/lib/content/image'")).toEqual([])
    expect(await boundaryErrors('app/(site)/[lang]/layout.tsx', "import { SiteChrome } from '@/components/site/site-chrome'")).toEqual([])
  }, 60_000)
})
