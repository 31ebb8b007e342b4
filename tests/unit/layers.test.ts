/**
 * No circle of imports in the product, type-only imports included (tools/test/import-graph.ts):
 * lib/content/types.ts and announcement.ts, and the outbox's dispatcher and its Slack and webhook
 * messages, were such circles until their shared types got one home each.
 */
import { execFileSync } from 'node:child_process'
import { readFileSync } from 'node:fs'
import { describe, expect, it } from 'vitest'
import { circles, importGraph, productFiles } from '@/tools/test/import-graph'

const files = productFiles(execFileSync('git', ['ls-files'], { encoding: 'utf8' }).split('\n').filter(Boolean))
const root = process.cwd()

describe('no circle of imports in the product', () => {
  it('holds in this tree', () => {
    expect(files).toEqual(expect.arrayContaining(['lib/content/types.ts', 'components/waitlist/outbox/dispatch.ts', 'app/(site)/[lang]/page.tsx', 'proxy.ts']))
    const graph = importGraph(root, files)
    expect(graph.get('components/waitlist/outbox/slack.ts')).toContain('components/waitlist/outbox/entry.ts')
    expect(circles(graph)).toEqual([])
  })

  it('fails a type-only import that closes a circle, through the path alias too', () => {
    const altered = (file: string) =>
      file === 'lib/content/types.ts'
        ? `import type { toAnnouncement } from '@/lib/content/announcement'\n${readFileSync(file, 'utf8')}`
        : readFileSync(file, 'utf8')
    expect(circles(importGraph(root, files, altered))).toEqual([['lib/content/announcement.ts', 'lib/content/types.ts']])
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
