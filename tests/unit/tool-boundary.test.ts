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
    ['lib/content/fetch.ts', "export { emails } from '../../tests/helpers/email-cases'"],
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
    expect(await boundaryErrors('lib/content/fetch.ts', "import { readSeedDataset } from '../../sanity/seed/dataset'")).toEqual([])
    expect(await boundaryErrors('components/waitlist/toolbar.tsx', "import { cn } from '@/lib/cn'")).toEqual([])
    expect(await boundaryErrors('tools/owner/owner.ts', "import { LOCAL_SUPABASE_URL } from '../supabase-local/keys'")).toEqual([])
    expect(await boundaryErrors('tests/unit/x.test.ts', "import { E2E } from '../../tools/test/e2e-env'")).toEqual([])
  }, 60_000)
})

describe('lib/ imports no feature (issue #41): what every feature shares leans on none', () => {
  const forbidden = [
    ['lib/content/types.ts', "import type { SectionImage } from '@/components/ui/sanity-image'"],
    ['lib/content/types.ts', "import type { WaitlistErrorCopy } from '../../components/waitlist/rules'"],
    ['lib/metadata.ts', "import { x } from '@/app/(site)/[lang]/layout'"],
  ] as const

  it.each(forbidden)(
    '%s: %s is an error',
    async (filePath, code) => {
      const errors = await boundaryErrors(filePath, code)
      expect(errors).toHaveLength(1)
      expect(errors[0]?.message).toMatch(/lib\/ is shared by every feature/)
    },
    60_000,
  )

  it('still forbids the tools in lib/, and lets features import lib/', async () => {
    expect(await boundaryErrors('lib/content/fetch.ts', "import { x } from '../../tools/bench/bench'")).toHaveLength(1)
    expect(await boundaryErrors('lib/content/fetch.ts', "import { evaluateQuery } from '@/sanity/seed/dataset'")).toEqual([])
    expect(await boundaryErrors('components/blog/feed.ts', "import { sanityImageAttributes } from '@/lib/content/image'")).toEqual([])
  }, 60_000)
})
