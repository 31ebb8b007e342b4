import { readFileSync } from 'node:fs'
import path from 'node:path'
import { describe, expect, it } from 'vitest'
// @ts-expect-error: a plain ES module run by `npm install` (package.json postinstall), without types.
import { added, edits, installedNextVersion, NEXT_VERSION, nextRoot } from '../../patches/next-inline-css/apply.mjs'

const read = (file: string) => readFileSync(path.join(nextRoot, file), 'utf8')

// The patch that sends each page's stylesheet once (patches/next-inline-css/apply.mjs). An upgrade
// of Next fails the install first; these fail if the patch is not in place for any other reason.
describe("the patch to Next's inlined CSS", () => {
  it('was written for the installed Next', () => {
    expect(installedNextVersion()).toBe(NEXT_VERSION)
  })

  it.each(edits as { file: string; from: string; to: string }[])('is applied to next/$file', ({ file, from, to }) => {
    const text = read(file)
    expect(text).toContain(to)
    expect(text.replace(to, '')).not.toContain(from)
  })

  it.each(added as { from: string; to: string }[])('added next/$to', ({ from, to }) => {
    expect(read(to)).toBe(readFileSync(path.join('patches', 'next-inline-css', from), 'utf8'))
  })
})
