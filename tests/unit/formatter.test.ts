/**
 * One formatter, Prettier (.prettierrc.json): `npm test` runs `prettier --check .` before lint
 * (tools/test/test.ts). These hold its two halves: the config rejects a badly formatted file, and
 * .prettierignore leaves out only what tools write and the hand-written prose.
 */
import { readFileSync } from 'node:fs'
import { getFileInfo, check, resolveConfig } from 'prettier'
import { describe, expect, it } from 'vitest'

const options = async (filepath: string) => ({ ...(await resolveConfig(filepath)), filepath })

describe('the formatter', () => {
  it('accepts a file of the tree and rejects the same file badly formatted', async () => {
    const file = 'components/site/header.tsx'
    const source = readFileSync(file, 'utf8')
    expect(await check(source, await options(file))).toBe(true)
    // Semicolons, double quotes and a missing trailing comma: each alone fails the check.
    const bad = [
      source.replace("from 'lucide'", 'from "lucide"'),
      source.replace("from 'lucide'\n", "from 'lucide';\n"),
      `const a = {\n  b: 1,\n  c: 2\n}\n${source}`,
    ]
    for (const text of bad) {
      expect(text).not.toBe(source)
      expect(await check(text, await options(file))).toBe(false)
    }
  })

  it('checks the product, the tools and the tests; leaves out generated files, the seed, lockfile and prose', async () => {
    const ignored = async (file: string) => (await getFileInfo(file, { ignorePath: '.prettierignore' })).ignored
    for (const file of [
      'proxy.ts',
      'lib/env/index.ts',
      'app/(site)/[lang]/page.tsx',
      'components/site/header.tsx',
      'sanity/queries.ts',
      'tools/test/test.ts',
      'e2e/header.spec.ts',
      'tests/unit/formatter.test.ts',
      'package.json',
      'app/globals.css',
    ]) {
      expect(await ignored(file), file).toBe(false)
    }
    for (const file of [
      'sanity/types.generated.ts',
      'supabase/types.generated.ts',
      'sanity/seed/documents/siteSettings.json',
      'package-lock.json',
      'docs/bench.json',
      'README.md',
      'docs/engineers.md',
    ]) {
      expect(await ignored(file), file).toBe(true)
    }
  })
})
