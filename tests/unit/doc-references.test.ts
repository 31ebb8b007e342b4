/**
 * Words that cannot drift (tools/test/doc-references.ts): the guides and the comments name only
 * paths that exist and headings that exist, and no product comment cites a migration.
 */
import { execFileSync } from 'node:child_process'
import { describe, expect, it } from 'vitest'
import { readFileSync } from 'node:fs'
import {
  anchorsOf,
  checkFile,
  checkRepository,
  filesToRead,
  guideSection,
  headingAnchor,
  sectionRegistries,
  unnamedRegistries,
} from '@/tools/test/doc-references'

const tracked = execFileSync('git', ['ls-files'], { encoding: 'utf8' }).split('\n').filter(Boolean)

describe('references in the guides and comments', () => {
  it('all hold in this tree', () => {
    expect(checkRepository(process.cwd(), tracked).map((p) => `${p.file}:${p.line} ${p.target}: ${p.problem}`)).toEqual([])
  })

  it('reads the guides and the product, not the tests, the migrations or the generated reports', () => {
    const read = filesToRead(tracked)
    expect(read).toEqual(
      expect.arrayContaining(['README.md', 'docs/engineers.md', 'components/waitlist/rules.ts', 'supabase/schemas/01_rules.sql', 'tools/owner/owner.ts']),
    )
    expect(read.filter((file) => /^(tests|e2e|supabase\/migrations)\//.test(file) || file.startsWith('docs/bench') || file.includes('generated'))).toEqual([])
  })

  const files = new Set(['components/waitlist/rules.ts', 'docs/waitlist.md', 'docs/engineers.md', 'app/(site)/[lang]/[...slug]/page.tsx'])
  const folders = new Set(['components', 'components/waitlist', 'docs', 'app', 'app/(site)', 'app/(site)/[lang]', 'app/(site)/[lang]/[...slug]'])
  const exists = (repoPath: string) => files.has(repoPath) || folders.has(repoPath)
  const guide = '# Waitlist\n\n## The line\n\n## Changing the database\n\n```\n# not a heading\n```\n\n## The line\n'
  const read = () => guide
  const check = (file: string, text: string) => checkFile(file, text, exists, read).map(({ target, problem }) => ({ target, problem }))

  it('fails on a stale path in a comment or a guide, and on a stale link or anchor', () => {
    expect(check('lib/x.ts', '// see components/waitlist/rule.ts.')).toEqual([{ target: 'components/waitlist/rule.ts', problem: 'no such file or folder' }])
    expect(check('docs/engineers.md', 'Read `components/waitlist/rules.ts` and [the line](waitlist.md#the-lines).')).toEqual([
      { target: 'waitlist.md#the-lines', problem: 'no heading in docs/waitlist.md has this anchor' },
    ])
    expect(check('docs/engineers.md', 'See [it](founders.md).')).toEqual([{ target: 'founders.md', problem: 'the link leads to no file' }])
  })

  it('fails on a path broken over two lines, in a comment or a guide', () => {
    expect(check('components/x.ts', ' * the messages (supabase/migrations/\n * *_waitlist_confirmation.sql), sent once')).toEqual([
      { target: 'supabase/migrations/*_waitlist_confirmation.sql', problem: 'a path broken over two lines: keep it on one' },
    ])
    expect(check('docs/engineers.md', 'the form is in components/waitlist/\nrules.ts, read it')).toEqual([
      { target: 'components/waitlist/rules.ts', problem: 'a path broken over two lines: keep it on one' },
    ])
    // A folder that ends a line, and a sentence that goes on, is no broken path.
    expect(check('docs/engineers.md', 'everything under components/waitlist/\nand the rest of the form.')).toEqual([])
  })

  it('fails on a stale path in a list item or a table row, as in prose', () => {
    expect(check('docs/engineers.md', '1. `components/waitlist/rules.ts`: the rules.\n2. `components/waitlist/gone.ts`: gone.')).toEqual([
      { target: 'components/waitlist/gone.ts', problem: 'no such file or folder' },
    ])
    expect(check('docs/waitlist.md', '| file | twin |\n| --- | --- |\n| `02_waitlist.sql` | `components/waitlist/gone.ts` |')).toEqual([
      { target: 'components/waitlist/gone.ts', problem: 'no such file or folder' },
    ])
  })

  describe("the engineers' guide's trails", () => {
    const trail = (step: string) => `# Guide\n\n## Trails\n\n### A sign-up\n\n1. \`components/waitlist/rules.ts\`: the rules.\n${step}\n\n## Testing\n`

    it('fail on a file a trail names that no longer exists, in a list item or a broken line', () => {
      expect(check('docs/engineers.md', trail('2. `components/waitlist/join.ts`: the insert.'))).toEqual([
        { target: 'components/waitlist/join.ts', problem: 'no such file or folder' },
      ])
      expect(check('docs/engineers.md', trail('2. the insert in components/waitlist/\njoin.ts, sent'))).toEqual([
        { target: 'components/waitlist/join.ts', problem: 'a path broken over two lines: keep it on one' },
      ])
    })

    it('fail on a file a trail names by its bare name, or by a pattern, which no check could find gone', () => {
      expect(check('docs/engineers.md', trail('2. `rules.ts` again, and `outbox/dispatch.ts`.'))).toEqual([
        { target: 'rules.ts', problem: 'a trail names a file the check cannot find: give its path from the root' },
        { target: 'outbox/dispatch.ts', problem: 'a trail names a file the check cannot find: give its path from the root' },
      ])
      expect(check('docs/engineers.md', trail('Tests: `components/waitlist/*.ts`.'))).toEqual([
        { target: 'components/waitlist/*.ts', problem: 'a trail names each file it passes, not a pattern' },
      ])
    })

    it('leave bare names and patterns to the other sections and guides', () => {
      expect(check('docs/engineers.md', `${trail('')}\nThe rules (\`rules.ts\`, \`components/waitlist/*.ts\`).\n`)).toEqual([])
      expect(check('docs/waitlist.md', '## Changing the database\n\n| `02_waitlist.sql` | `rules.ts` |')).toEqual([])
    })

    it('name the dispatcher, its callers and the Slack sender on the sign-up trail, every step by its path', () => {
      const signUp = /\n### A sign-up[^\n]*\n([\s\S]*?)\n### /.exec(guideSection(readFileSync('docs/engineers.md', 'utf8'), 'Trails'))
      const steps = (signUp?.[1] ?? '').split('\n').filter((line) => /^\d+\. /.test(line))
      expect(steps.length).toBeGreaterThan(40)
      expect(steps.filter((step) => !/^\d+\. `[^`]+`: /.test(step))).toEqual([])
      const named = steps.join('\n')
      for (const file of [
        'components/waitlist/join.ts',
        'supabase/schemas/02_waitlist.sql',
        'supabase/schemas/07_outbox.sql',
        'app/api/outbox/dispatch/route.ts',
        'components/waitlist/outbox/dispatch.ts',
        'components/waitlist/outbox/slack.ts',
      ])
        expect(named).toContain(`\`${file}\``)
      expect(guideSection(readFileSync('docs/engineers.md', 'utf8'), 'Trails')).toContain('`tools/local/local-mail.ts`')
    })
  })

  it('fails on a product comment that cites a migration, even by a pattern', () => {
    expect(check('components/x.ts', '// the rule (supabase/migrations/*_waitlist.sql)')).toHaveLength(1)
    expect(check('components/x.ts', '// the rule (supabase/migrations/20261122120000_waitlist.sql)')[0]?.problem).toMatch(/cites a migration/)
  })

  it('passes what is true: routes with brackets, folders, a sentence ending, repeated headings, packages, Markdown shown as code', () => {
    expect(check('lib/x.ts', '// unknown slugs reach app/(site)/[lang]/[...slug], (components/waitlist/rules.ts).')).toEqual([])
    expect(check('lib/x.ts', "import { defineConfig } from 'sanity/structure'\nimport x from '@sanity/webhook'")).toEqual([])
    expect(
      check(
        'docs/engineers.md',
        '[a](waitlist.md#the-line), [b](waitlist.md#the-line-1), [c](#changing-the-database) `- [title](url):\nnote`, [d](https://example.com/x.md)',
      ),
    ).toEqual([])
  })

  it("makes GitHub's anchors", () => {
    expect(headingAnchor('Sending pace: the hourly e-mail cap')).toBe('sending-pace-the-hourly-e-mail-cap')
    expect(headingAnchor('Add a `kind`, then test it')).toBe('add-a-kind-then-test-it')
    expect([...anchorsOf('# A\n## A\n## B & C')]).toEqual(['a', 'a-1', 'b--c'])
  })

  describe('the "Add a section" recipe', () => {
    const sources = new Map(
      tracked.filter((file) => /^(components|sanity)\/sections\/[^/]+\.tsx?$/.test(file)).map((file) => [file, readFileSync(file, 'utf8')]),
    )
    const guide = readFileSync('docs/engineers.md', 'utf8')

    it('names every shared list a new section joins', () => {
      expect(sectionRegistries(sources)).toEqual(expect.arrayContaining(['components/sections/registry.ts', 'sanity/sections/schemas.ts']))
      expect(unnamedRegistries(guide, sources)).toEqual([])
    })

    it('fails when a new list joins without the recipe naming it', () => {
      const withNewList = new Map([...sources, ['components/sections/icons.ts', "import { a } from './hero/icon'\nimport { b } from './faq/icon'\n"]])
      expect(unnamedRegistries(guide, withNewList)).toEqual(['components/sections/icons.ts'])
    })
  })
})
