/**
 * Every content example the guides print is published as `npm run content:publish` publishes it,
 * as printed (copied out of the Markdown, pretty JSON and all, into a file), against a copy of the
 * seed: an editor who pastes one into a file gets it published, not "not valid JSON" or a Studio
 * rule it breaks. The first runs the command itself; the others its code (the file read as it reads
 * it, then tools/content/publish.ts) in this process, without a tsx start each.
 */
import { execFile } from 'node:child_process'
import { readdir, readFile, rm, writeFile } from 'node:fs/promises'
import { createServer, type Server } from 'node:http'
import type { AddressInfo } from 'node:net'
import path from 'node:path'
import { promisify } from 'node:util'
import { afterAll, beforeAll, describe, expect, test } from 'vitest'
import { parseNdjson } from '@/sanity/seed/dataset'
import { parseDocumentsFile } from '@/tools/content/documents-file'
import { publishContent } from '@/tools/content/publish'
import { seedCopy } from '@/tests/helpers/seed-copy'

const exec = promisify(execFile)
const root = process.cwd()

/**
 * The guides' JSON blocks that are content: every one in the editors' guide (its examples are all
 * for `content:publish`), and any other guide's block that holds a document (`"_type"`).
 */
async function contentExamples(): Promise<{ name: string; text: string }[]> {
  const examples: { name: string; text: string }[] = []
  for (const file of (await readdir('docs')).filter((name) => name.endsWith('.md'))) {
    const markdown = await readFile(path.join('docs', file), 'utf8')
    for (const match of markdown.matchAll(/^```json\n([\s\S]*?)^```$/gm)) {
      const line = markdown.slice(0, match.index).split('\n').length
      if (file === 'editors.md' || match[1]!.includes('"_type"')) examples.push({ name: `docs/${file}:${line}`, text: match[1]! })
    }
  }
  return examples
}

let site: Server
let siteUrl = ''
const webhooks: { _id: string; _type: string }[] = []

beforeAll(async () => {
  // The running site's side of the publish: the signed webhook arrives, and is answered as the site does.
  site = createServer((request, response) => {
    let body = ''
    request.on('data', (chunk: Buffer) => (body += chunk.toString()))
    request.on('end', () => {
      webhooks.push(JSON.parse(body) as { _id: string; _type: string })
      response.writeHead(200, { 'content-type': 'application/json' }).end(JSON.stringify({ revalidated: true, tags: ['test'] }))
    })
  })
  await new Promise<void>((resolve) => site.listen(0, '127.0.0.1', resolve))
  siteUrl = `http://127.0.0.1:${(site.address() as AddressInfo).port}`
})

afterAll(() => new Promise<void>((resolve) => site.close(() => resolve())))

const examples = await contentExamples()

test('the guides print content examples (the editors’ experiment among them)', () => {
  expect(examples.some((example) => example.text.includes('"_type": "experiment"'))).toBe(true)
})

/** What the command prints, from the command itself or, in this process, from its code. */
async function publishFile(file: string, env: NodeJS.ProcessEnv, spawned: boolean): Promise<string> {
  if (spawned) {
    const command = [path.join(root, 'node_modules/tsx/dist/cli.mjs'), 'tools/content/content-publish.ts', file, '--site', siteUrl]
    return (await exec(process.execPath, command, { env })).stdout
  }
  return publishContent({ changes: parseDocumentsFile(await readFile(file, 'utf8'), file), env, site: siteUrl })
}

describe.each(examples.map((example, index) => ({ ...example, spawned: index === 0 })))('$name', ({ name, text, spawned }) => {
  test('publishes as printed with npm run content:publish', async () => {
    const { dir, seedPath } = await seedCopy('docs-example')
    try {
      const file = path.join(dir, 'example.json')
      await writeFile(file, text)
      const expected = [JSON.parse(text)].flat() as { _id: string }[]
      webhooks.length = 0
      const stdout = await publishFile(file, { ...process.env, CONTENT_SEED_PATH: seedPath, SANITY_REVALIDATE_SECRET: 'docs-example-secret' }, spawned)
      expect(stdout, name).toContain(`Published ${expected.length} document(s)`)
      const published = parseNdjson(await readFile(seedPath, 'utf8'))
      for (const doc of expected)
        expect(
          published.find((each) => each._id === doc._id),
          doc._id,
        ).toEqual(doc)
      expect(webhooks.map((hook) => hook._id)).toEqual(expected.map((doc) => doc._id))
    } finally {
      await rm(dir, { recursive: true, force: true })
    }
  }, 60_000)
})
