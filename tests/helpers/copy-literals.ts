import { execFileSync } from 'node:child_process'
import { readdirSync, readFileSync } from 'node:fs'
import path from 'node:path'
import ts from 'typescript'

/**
 * Finds copy written into end-to-end specs as literals: the text a locator or an assertion
 * expects (getByText('…'), getByRole(…, { name: '…' }), filter({ hasText: '…' }),
 * toHaveText('…'), …) and the strings of an array a `for…of` walks. Copy should come from the
 * seed (e2e/seed-copy.ts); a literal that is not seed copy (a fixture the test publishes itself,
 * a label the code owns) says so with a `not seed copy` comment on its line or the line above, or
 * above the statement that holds it.
 *
 * `npx tsx tests/helpers/copy-literals.ts [commit]` prints the count per spec (of the working
 * tree, or of the specs at `commit`).
 */

export type CopyLiteral = { file: string; line: number; text: string; marked: boolean }

/** Calls whose first argument is text the page should show. */
const TEXT_ARGUMENT = new Set([
  'getByText',
  'getByLabel',
  'getByPlaceholder',
  'getByAltText',
  'getByTitle',
  'toHaveText',
  'toContainText',
  'toHaveTitle',
  'toHaveAccessibleDescription',
  'toHaveAccessibleName',
])
/** Calls whose options name the text: getByRole(role, { name }), locator(selector, { hasText }), filter({ hasText }). */
const TEXT_OPTION: Record<string, string> = { getByRole: 'name', locator: 'hasText', filter: 'hasText' }
const MARKER = 'not seed copy'

/** The literal text in an expression, if it is written out: a string, a template's fixed parts, a regular expression's source. */
function literalText(node: ts.Node): string | null {
  if (ts.isStringLiteral(node) || ts.isNoSubstitutionTemplateLiteral(node)) return node.text
  if (ts.isRegularExpressionLiteral(node)) return node.text.slice(1, node.text.lastIndexOf('/'))
  if (ts.isTemplateExpression(node)) return [node.head.text, ...node.templateSpans.map((span) => span.literal.text)].join(' ')
  return null
}

/** Words, not a key, a route or a selector: it starts with a capital or has a space. */
const looksLikeCopy = (text: string) => /^\p{Lu}| /u.test(text) && !/^(\/|#|https?:|\[)/.test(text)

export function copyLiterals(file: string, source: string): CopyLiteral[] {
  const tree = ts.createSourceFile(file, source, ts.ScriptTarget.Latest, true)
  const lines = source.split('\n')
  const found: CopyLiteral[] = []
  const lineOf = (node: ts.Node) => tree.getLineAndCharacterOfPosition(node.getStart()).line
  /** The statement a node is part of: what a formatter may spread over several lines below one comment. */
  const statementOf = (node: ts.Node): ts.Node => (!node.parent || ts.isBlock(node.parent) || ts.isSourceFile(node.parent) ? node : statementOf(node.parent))
  // A literal is marked by a comment on its line or the line above, or above the statement it is
  // part of (or the for…of that lists it).
  const add = (node: ts.Node, statement?: ts.Node) => {
    const text = literalText(node)
    if (text === null || !/\p{L}/u.test(text) || (statement && !looksLikeCopy(text))) return
    const line = lineOf(node)
    const marked = [line, line - 1, lineOf(statementOf(node)) - 1, statement ? lineOf(statement) - 1 : -1].some((at) => lines[at]?.includes(MARKER))
    found.push({ file, line: line + 1, text, marked })
  }
  const addStrings = (node: ts.Node, statement: ts.Node): void => {
    if (ts.isArrayLiteralExpression(node)) node.elements.forEach((element) => addStrings(element, statement))
    else if (ts.isAsExpression(node)) addStrings(node.expression, statement)
    else add(node, statement)
  }
  const visit = (node: ts.Node): void => {
    if (ts.isCallExpression(node) && ts.isPropertyAccessExpression(node.expression)) {
      const name = node.expression.name.text
      const [first] = node.arguments
      if (TEXT_ARGUMENT.has(name) && first) add(first)
      const option = TEXT_OPTION[name]
      const options = node.arguments.find(ts.isObjectLiteralExpression)
      if (option && options) {
        for (const property of options.properties) {
          if (ts.isPropertyAssignment(property) && ts.isIdentifier(property.name) && property.name.text === option) add(property.initializer)
        }
      }
    }
    if (ts.isForOfStatement(node)) addStrings(node.expression, node)
    ts.forEachChild(node, visit)
  }
  visit(tree)
  return found
}

export const SPEC_DIR = 'e2e'
export const isSpec = (file: string) => file.endsWith('.spec.ts')

/** Every copy literal in the specs of the working tree, or of `commit`. */
export function specCopyLiterals(commit?: string): CopyLiteral[] {
  const files = commit
    ? execFileSync('git', ['ls-tree', '--name-only', `${commit}:${SPEC_DIR}`], { encoding: 'utf8' })
        .split('\n')
        .filter(isSpec)
    : readdirSync(SPEC_DIR).filter(isSpec)
  return files.sort().flatMap((name) => {
    const file = path.join(SPEC_DIR, name)
    const source = commit ? execFileSync('git', ['show', `${commit}:${file}`], { encoding: 'utf8' }) : readFileSync(file, 'utf8')
    return copyLiterals(file, source)
  })
}

if (process.argv[1] && path.resolve(process.argv[1]) === path.resolve(import.meta.filename)) {
  const literals = specCopyLiterals(process.argv[2])
  for (const file of new Set(literals.map((literal) => literal.file))) {
    const list = literals.filter((literal) => literal.file === file)
    console.log(`${String(list.length).padStart(4)}  ${file}  (${list.filter((literal) => literal.marked).length} marked not seed copy)`)
  }
  console.log(`${String(literals.length).padStart(4)}  in all; ${literals.filter((l) => !l.marked).length} unmarked`)
}
