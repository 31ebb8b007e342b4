/**
 * Words that cannot drift (tests/unit/doc-references.test.ts): every repository path a guide or a
 * comment names exists (on one line: a path broken over two is flagged), in prose, list items and
 * tables alike; every file a trail of the engineers' guide names is a path from the root that
 * exists (a bare `join.ts` or a pattern names nothing the check can find); every link between the
 * guides lands on a heading that exists, and no
 * product comment sends a reader to a migration (a migration is history: the current definition of
 * each database object is in `supabase/schemas/`, and a later migration may have replaced the one
 * cited).
 *
 * What is read: the guides (README.md, docs/*.md but the generated bench report) and the code and
 * SQL of the product and the tools. Not read: tests and end-to-end specs (they name made-up paths
 * on purpose), the migrations (history, never edited), generated files.
 */
import { readFileSync } from 'node:fs'
import path from 'node:path'

/** The folders a repository path starts with (an import of a package named like one is skipped: see IMPORT). */
const ROOTS = ['app', 'components', 'lib', 'sanity', 'supabase', 'tools', 'tests', 'e2e', 'docs', 'patches', 'public', '.ci']

/** Produced by a command, never committed: named in guides as what that command writes. */
export const GENERATED_PATHS = new Set(['sanity/extract.json'])

/** Files whose paths are not this repository's: the bench's floor app writes its own app/ tree. */
const OTHER_TREES = new Set(['tools/bench/floor-app.ts'])

export type Reference = { file: string; line: number; target: string; problem: string }

/** The files to read, from a listing of the repository's tracked files. */
export function filesToRead(tracked: readonly string[]): string[] {
  return tracked.filter(
    (file) =>
      /\.(ts|tsx|mjs|sql|md)$/.test(file) &&
      !/^(tests|e2e|supabase\/migrations)\//.test(file) &&
      !/(^|\/)[^/]*generated[^/]*$/.test(file) &&
      !['docs/bench.md', 'docs/bench-db.md'].includes(file) &&
      !OTHER_TREES.has(file),
  )
}

const PATH = new RegExp(`(?<![\\w./@~'"-])((?:${ROOTS.map((root) => root.replace('.', '\\.')).join('|')})/[A-Za-z0-9_.\\-\\[\\]()@*/]*[A-Za-z0-9_\\])*-])`, 'g')
const LINK = /\]\(([^)\s]+?)\)/g
/** The next line's start after a comment's marker, when it is the rest of a file name (`*_x.sql`, `dispatch.ts`). */
const SPLIT_REST = /^\s*(?:\*|\/\/|--|#)?\s*([A-Za-z0-9_.*\-[\]()]+\.(?:ts|tsx|mjs|sql|md|json|ndjson))\b/
const IMPORT = /^\s*(import|export)\b.*\bfrom\s+['"]|^\s*import\s+['"]/
/** A file named in inline code, with or without its folders. */
const FILE_SPAN = /`([^`\s]+\.(?:ts|tsx|mjs|sql|md|json|ndjson))`/g

/** The guides' sections that name every file by its path from the root: the trails, which a reader follows file by file. */
const PATHS_ONLY_SECTIONS = new Set(['Trails'])

/** For each line of a guide, whether it is in one of PATHS_ONLY_SECTIONS (a `## ` heading starts and ends one). */
function inPathsOnlySection(lines: readonly string[]): boolean[] {
  let inside = false
  let fenced = false
  return lines.map((line) => {
    if (/^\s*```/.test(line)) fenced = !fenced
    const heading = !fenced && /^##\s+(.*?)\s*$/.exec(line)
    if (heading) inside = PATHS_ONLY_SECTIONS.has(heading[1]!)
    return inside
  })
}

/** A sentence's full stop or closing bracket is not part of the path; a route's `[slug]` is. */
function trimEnd(target: string): string {
  const count = (char: string) => target.split(char).length - 1
  while (target.endsWith('.') || (target.endsWith(')') && count(')') > count('(')) || (target.endsWith(']') && count(']') > count('[')))
    target = target.slice(0, -1)
  return target
}

/** GitHub's anchor for a heading: lower case, punctuation dropped, spaces as hyphens. */
export function headingAnchor(heading: string): string {
  return heading
    .trim()
    .toLowerCase()
    .replace(/`/g, '')
    .replace(/[^\p{L}\p{N}\s_-]/gu, '')
    .replace(/\s/g, '-')
}

/** The anchors of a Markdown file's headings, numbered as GitHub numbers repeats (-1, -2). */
export function anchorsOf(markdown: string): Set<string> {
  const anchors = new Set<string>()
  const seen = new Map<string, number>()
  let fenced = false
  for (const line of markdown.split('\n')) {
    if (/^\s*```/.test(line)) fenced = !fenced
    const heading = !fenced && /^#{1,6}\s+(.*?)\s*#*\s*$/.exec(line)
    if (!heading) continue
    const anchor = headingAnchor(heading[1]!)
    const count = seen.get(anchor) ?? 0
    anchors.add(count === 0 ? anchor : `${anchor}-${count}`)
    seen.set(anchor, count + 1)
  }
  return anchors
}

/**
 * Every reference in `file` (its text `text`) that does not hold. `exists` answers for a path
 * relative to the repository (a file or a folder); `read` gives a Markdown file's text.
 */
export function checkFile(file: string, text: string, exists: (repoPath: string) => boolean, read: (repoPath: string) => string): Reference[] {
  const problems: Reference[] = []
  const lines = text.split('\n')
  // Inline code shows Markdown as text (`- [title](url): note`), across a line break too: not a link.
  const linkLines = text.replace(/`[^`]*`/g, (code) => code.replace(/[^\n]/g, ' ')).split('\n')
  const product = !file.endsWith('.md')
  const pathsOnly = product ? [] : inPathsOnlySection(lines)
  lines.forEach((line, index) => {
    const at = { file, line: index + 1 }
    if (product && IMPORT.test(line)) return
    if (pathsOnly[index]) {
      for (const [, name] of line.matchAll(FILE_SPAN)) {
        // A path from the root is checked below; a bare name (or a partial path) only when it is a root file.
        if (!ROOTS.some((root) => name!.startsWith(`${root}/`)) && !exists(name!))
          problems.push({ ...at, target: name!, problem: 'a trail names a file the check cannot find: give its path from the root' })
      }
    }
    for (const match of line.matchAll(PATH)) {
      // A path broken over two lines names neither half: the reader, and this check, see only a folder.
      const rest = SPLIT_REST.exec(lines[index + 1] ?? '')
      if (rest && line.slice(match.index + match[0].length).trimEnd() === '/') {
        problems.push({ ...at, target: `${match[1]}/${rest[1]}`, problem: 'a path broken over two lines: keep it on one' })
        continue
      }
      // A Markdown link's text and its target are read apart.
      const target = trimEnd(match[1]!.split('](')[0]!)
      if (target.includes('<')) continue
      if (target.startsWith('supabase/migrations/') && product) {
        problems.push({ ...at, target, problem: 'a comment cites a migration: cite the object in supabase/schemas/ (its current definition)' })
        continue
      }
      if (target.includes('*') && pathsOnly[index]) {
        problems.push({ ...at, target, problem: 'a trail names each file it passes, not a pattern' })
        continue
      }
      if (target.includes('*') || GENERATED_PATHS.has(target)) continue
      if (!exists(target.replace(/\/$/, ''))) problems.push({ ...at, target, problem: 'no such file or folder' })
    }
    if (product) return
    for (const match of linkLines[index]!.matchAll(LINK)) {
      const link = match[1]!
      if (/^[a-z]+:/i.test(link) || link.startsWith('/')) continue
      const [relative, anchor] = link.split('#') as [string, string | undefined]
      const target = relative ? path.posix.normalize(path.posix.join(path.posix.dirname(file), relative)) : file
      if (relative && !exists(target)) {
        problems.push({ ...at, target: link, problem: 'the link leads to no file' })
        continue
      }
      if (anchor && target.endsWith('.md') && !anchorsOf(read(target)).has(anchor))
        problems.push({ ...at, target: link, problem: `no heading in ${target} has this anchor` })
    }
  })
  return problems
}

/** Every broken reference among the tracked files, read from the working tree at `root`. */
export function checkRepository(root: string, tracked: readonly string[]): Reference[] {
  const trackedSet = new Set(tracked)
  const folders = new Set(
    tracked.flatMap((file) =>
      file
        .split('/')
        .slice(0, -1)
        .map((_, index, parts) => parts.slice(0, index + 1).join('/')),
    ),
  )
  const exists = (repoPath: string) => trackedSet.has(repoPath) || folders.has(repoPath)
  const read = (repoPath: string) => readFileSync(path.join(root, repoPath), 'utf8')
  return filesToRead(tracked).flatMap((file) => checkFile(file, read(file), exists, read))
}

/** The text under one `## heading` of a guide, up to the next heading of that level. */
export function guideSection(markdown: string, heading: string): string {
  const start = markdown.indexOf(`\n## ${heading}\n`)
  if (start < 0) return ''
  const end = markdown.indexOf('\n## ', start + 1)
  return markdown.slice(start, end < 0 ? undefined : end)
}

/**
 * The shared lists a new section must join: the files beside the section folders that import from
 * two or more of them (`sources` maps each such file to its text).
 */
export function sectionRegistries(sources: ReadonlyMap<string, string>): string[] {
  return [...sources]
    .filter(([, text]) => new Set([...text.matchAll(/from '\.\/([a-z-]+)\//g)].map((match) => match[1])).size >= 2)
    .map(([file]) => file)
    .sort()
}

/** The registries the "Add a section" recipe of the engineers' guide leaves unnamed. */
export function unnamedRegistries(guide: string, sources: ReadonlyMap<string, string>): string[] {
  const recipe = guideSection(guide, 'Add a section')
  return sectionRegistries(sources).filter((file) => !recipe.includes(file))
}
