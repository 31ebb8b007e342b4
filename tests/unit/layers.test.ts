/**
 * The product's imports point down and close no circle, type-only imports included
 * (tools/test/import-graph.ts). The layers, bottom to top: lib/, sanity/ (with sanity.config.ts and
 * sanity.cli.ts), components/, the routes (docs/engineers.md, "Layers"; eslint.config.mjs fails a
 * single back-import as it is written, this reads the whole graph). sanity/content/types.ts and
 * announcement.ts, and the outbox's dispatcher and its Slack and webhook messages, were circles
 * until their shared types got one home each.
 */
import { execFileSync } from 'node:child_process'
import { readFileSync } from 'node:fs'
import { describe, expect, it } from 'vitest'
import { circles, importGraph, productFiles } from '@/tools/test/import-graph'

const files = productFiles(execFileSync('git', ['ls-files'], { encoding: 'utf8' }).split('\n').filter(Boolean))
const root = process.cwd()

/** Each layer and what belongs to it (a folder ends in a slash), bottom first. */
const LAYERS = [
  ['lib', ['lib/']],
  ['sanity', ['sanity/', 'sanity.config.ts', 'sanity.cli.ts']],
  ['components', ['components/']],
  ['routes', ['app/', 'proxy.ts', 'instrumentation.ts', 'next.config.ts']],
] as const

/** A file's layer: its index in LAYERS, or -1 when it is in none. */
const layerOf = (file: string) =>
  LAYERS.findIndex(([, members]) => members.some((member) => (member.endsWith('/') ? file.startsWith(member) : file === member)))

/** Every import from a lower layer to a higher one, as "importer -> imported". */
const backUp = (graph: ReadonlyMap<string, ReadonlySet<string>>) =>
  [...graph].flatMap(([file, imported]) => [...imported].filter((target) => layerOf(target) > layerOf(file)).map((target) => `${file} -> ${target}`))

describe('no circle of imports in the product', () => {
  it('holds in this tree', () => {
    expect(files).toEqual(
      expect.arrayContaining(['sanity/content/types.ts', 'components/waitlist/outbox/dispatch.ts', 'app/(site)/[lang]/page.tsx', 'proxy.ts']),
    )
    const graph = importGraph(root, files)
    expect(graph.get('components/waitlist/outbox/slack.ts')).toContain('components/waitlist/outbox/entry.ts')
    expect(circles(graph)).toEqual([])
  })

  it('fails a type-only import that closes a circle, through the path alias too', () => {
    const altered = (file: string) =>
      file === 'sanity/content/types.ts'
        ? `import type { toAnnouncement } from '@/sanity/content/announcement'\n${readFileSync(file, 'utf8')}`
        : readFileSync(file, 'utf8')
    expect(circles(importGraph(root, files, altered))).toEqual([['sanity/content/announcement.ts', 'sanity/content/types.ts']])
  })

  it('finds a longer circle whole', () => {
    const graph = new Map([
      ['a', new Set(['b'])],
      ['b', new Set(['c'])],
      ['c', new Set(['a', 'd'])],
      ['d', new Set<string>()],
    ])
    expect(circles(graph)).toEqual([['a', 'b', 'c']])
  })
})

describe('every import between product folders points down', () => {
  it('puts every product file in a layer', () => {
    expect(files.filter((file) => layerOf(file) < 0)).toEqual([])
    expect(
      ['lib/content/paths.ts', 'sanity/sections/hero/schema.ts', 'sanity.config.ts', 'components/sections/hero/hero.tsx', 'proxy.ts'].map(layerOf),
    ).toEqual([0, 1, 1, 2, 3])
  })

  it('holds in this tree', () => {
    const graph = importGraph(root, files)
    expect(graph.get('components/seo/metadata.ts')).toContain('sanity/content/index.ts')
    expect(backUp(graph)).toEqual([])
  })

  it('reports an import back up, type-only and through the path alias too', () => {
    const altered = (file: string) =>
      file === 'lib/content/paths.ts' ? `import type { Page } from '@/sanity/content/types'\n${readFileSync(file, 'utf8')}` : readFileSync(file, 'utf8')
    expect(backUp(importGraph(root, files, altered))).toEqual(['lib/content/paths.ts -> sanity/content/types.ts'])
  })

  it('fails on a product file in no layer', () => {
    expect(layerOf('middleware.ts')).toBe(-1)
    expect(layerOf('lib/cn.ts')).toBe(0)
  })
})
