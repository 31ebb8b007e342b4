import { execFile } from 'node:child_process'
import { cp, mkdtemp, readFile, writeFile } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import path from 'node:path'
import { promisify } from 'node:util'
import { describe, expect, it } from 'vitest'
import { assembleSeed, SEED_DOCUMENTS_DIR } from '@/tools/content/seed-assemble'
import { parseNdjson } from '@/sanity/seed/dataset'
import { copy, loadSeedCopy, SEED_PATH, withValues } from '@/e2e/seed-copy'
import { copyLiterals, specCopyLiterals } from '../helpers/copy-literals'

// The end-to-end tests read the copy they expect from the seed (e2e/seed-copy.ts). These check the
// helper itself: it reads what the seed says, follows an edit, and a field the seed lacks stops a
// spec with the document and the field's path, never with `undefined` compared to the page.

const exec = promisify(execFile)

/** A copy of the seed dataset with `change` applied to one document, in a temporary file. */
async function seedWith(id: string, change: (doc: Record<string, unknown>) => void): Promise<string> {
  const documents = parseNdjson(await readFile(SEED_PATH, 'utf8'))
  const doc = documents.find((candidate) => candidate._id === id)!
  change(doc)
  const file = path.join(await mkdtemp(path.join(tmpdir(), 'seed-copy-')), 'production.ndjson')
  await writeFile(file, `${documents.map((candidate) => JSON.stringify(candidate)).join('\n')}\n`)
  return file
}

/** Lists the specs (loads every spec module, runs no test) with `env`; the listing's output and whether it passed. */
async function listSpecs(config: string, env: Record<string, string> = {}): Promise<{ ok: boolean; output: string }> {
  try {
    const { stdout, stderr } = await exec('node_modules/.bin/playwright', ['test', '--list', '--config', config], { env: { ...process.env, ...env } })
    return { ok: true, output: stdout + stderr }
  } catch (error) {
    const failed = error as { stdout: string; stderr: string }
    return { ok: false, output: failed.stdout + failed.stderr }
  }
}

describe('the seed copy the end-to-end tests read', () => {
  it('is what the seed documents say, typed by the generated schema', async () => {
    const source = JSON.parse(await readFile(path.join(SEED_DOCUMENTS_DIR, 'waitlistPage.json'), 'utf8'))
    expect(copy.waitlist.form.submitLabel).toBe(source.form.submitLabel)
    expect(copy.section(copy.landing, 'heroSection').title.length).toBeGreaterThan(0)
    const demo = copy.deref(copy.landing.demo)
    expect(demo._type).toBe('demoConversation')
    expect(copy.withTokens('{{usageClaim}} and {{contactEmail}}')).toBe(`${copy.settings.usageClaim} and ${copy.settings.contact.generalEmail}`)
    expect(withValues('Up to {n} insights, {unknown} stays', { n: 1000 })).toBe('Up to 1000 insights, {unknown} stays')
  })

  it('a field the seed lacks throws, naming the document and the path', async () => {
    const file = await seedWith('waitlistPage', (doc) => delete (doc.form as Record<string, unknown>).submitLabel)
    const edited = loadSeedCopy(file)
    expect(() => edited.waitlist.form.submitLabel).toThrow('seed document "waitlistPage" has no form.submitLabel')
    expect(() => edited.landing.sections[99]).toThrow('seed document "landingPage" has no sections[99]')
    expect(() => copy.doc('page-nowhere', 'page')).toThrow('the seed has no document "page-nowhere"')
    expect(() => copy.doc('waitlistPage', 'page')).toThrow('seed document "waitlistPage" is a waitlistPage, not a page')
    expect(() => copy.section(copy.about, 'pricingSection')).toThrow('has no pricingSection')
    expect(() => copy.navLabel('/nowhere')).toThrow('has no navigation link to /nowhere')
  })

  it('asking with `in` never throws, and neither do promises, JSON or matchers probing the documents', async () => {
    const reply = copy.deref(copy.landing.demo).steps[0]!.replies[0]!
    expect(typeof ('followUp' in reply)).toBe('boolean')
    const settings = copy.settings
    expect(JSON.parse(JSON.stringify(settings)).siteName).toBe(settings.siteName)
    expect(await Promise.resolve(settings)).toBe(settings)
    expect({ ...settings.contact }).toEqual(JSON.parse(JSON.stringify(settings.contact)))
    expect([...copy.waitlist.benefits]).toEqual(copy.waitlist.benefits)
  })

  it("follows a marketer's edit: a changed document, assembled as `npm run content:seed` does, is what the tests expect", async () => {
    const dir = await mkdtemp(path.join(tmpdir(), 'seed-documents-'))
    await cp(SEED_DOCUMENTS_DIR, dir, { recursive: true })
    const source = path.join(dir, 'waitlistPage.json')
    const doc = JSON.parse(await readFile(source, 'utf8'))
    doc.form.submitLabel = 'Count me in'
    doc.confirmation.title = 'Welcome aboard!'
    await writeFile(source, JSON.stringify(doc, null, 2))
    const file = path.join(dir, 'production.ndjson')
    await writeFile(file, await assembleSeed(dir))

    const edited = loadSeedCopy(file)
    expect(edited.waitlist.form.submitLabel).toBe('Count me in')
    expect(edited.waitlist.confirmation.title).toBe('Welcome aboard!')
    // Everything else is as before.
    expect(edited.waitlist.form.nameLabel).toBe(copy.waitlist.form.nameLabel)
    expect(copy.waitlist.form.submitLabel).not.toBe('Count me in')
  })

  // That every spec loads against the seed as it is, the end-to-end step shows: it loads them all.
  it('a seed missing a field a spec reads is refused by name, as the specs load', async () => {
    // The hero's product picture is optional in the Studio; e2e/landing-sections.spec.ts reads it as it loads.
    const file = await seedWith(
      'landingPage',
      (doc) => delete (doc.sections as Record<string, unknown>[]).find((section) => section._type === 'heroSection')!.visual,
    )
    const broken = await listSpecs('playwright.config.ts', { SEED_COPY_PATH: file })
    expect(broken.ok).toBe(false)
    expect(broken.output).toContain('seed document "landingPage" has no sections[0].visual')
  }, 90_000)

  it('no spec writes copy out as a literal, unless a comment says why it is not seed copy', () => {
    const unmarked = specCopyLiterals().filter((literal) => !literal.marked)
    expect(unmarked.map((literal) => `${literal.file}:${literal.line} ${JSON.stringify(literal.text)}`)).toEqual([])
  })

  it('a comment marks its line, the next, and a statement the formatter spreads below it; nothing further', () => {
    const source = [
      "await expect(page.getByText('Unmarked words')).toBeVisible()",
      '// not seed copy: the code owns this label',
      'await page',
      "  .getByRole('region', { name: 'Latest deliveries' })",
      "  .getByRole('button', { name: /^Resend delivery / })",
      '  .click()',
      "await expect(page.getByText('Also unmarked')).toBeVisible()",
    ].join('\n')
    const found = copyLiterals('x.spec.ts', source).map(({ text, marked }) => [text, marked])
    expect(found).toEqual([
      ['Unmarked words', false],
      ['^Resend delivery ', true],
      ['Latest deliveries', true],
      ['Also unmarked', false],
    ])
  })
})
