/**
 * The product's imports as a graph, read by TypeScript itself (`preProcessFile` finds every import,
 * `import type` and `export … from` included; `resolveModuleName` follows tsconfig's paths), and its
 * circles. ESLint's import/no-cycle skips type-only imports, and a circle of types still ties two
 * files together: tests/unit/layers.test.ts holds the product to none.
 */
import { readFileSync } from 'node:fs'
import path from 'node:path'
import ts from 'typescript'

/** The product: what a deployment runs. Tests, tools and generated files are not in it. */
export function productFiles(tracked: readonly string[]): string[] {
  return tracked.filter(
    (file) =>
      /^(app|components|lib|sanity)\/.*\.(ts|tsx|mjs)$|^[^/]+\.(ts|tsx)$/.test(file) &&
      !file.endsWith('.d.ts') &&
      !file.includes('generated') &&
      !/\.config\.ts$/.test(file),
  )
}

function compilerOptions(root: string): ts.CompilerOptions {
  const config = ts.readConfigFile(path.join(root, 'tsconfig.json'), ts.sys.readFile)
  return ts.parseJsonConfigFileContent(config.config, ts.sys, root).options
}

/**
 * Each product file and the product files it imports. `read` gives a file's text (tests hand in an
 * altered one); only files in `files` become nodes.
 */
export function importGraph(
  root: string,
  files: readonly string[],
  read: (file: string) => string = (file) => readFileSync(path.join(root, file), 'utf8'),
): Map<string, Set<string>> {
  const options = compilerOptions(root)
  const known = new Set(files)
  const graph = new Map<string, Set<string>>()
  for (const file of files) {
    const edges = new Set<string>()
    for (const imported of ts.preProcessFile(read(file), true, true).importedFiles) {
      const resolved = ts.resolveModuleName(imported.fileName, path.join(root, file), options, ts.sys).resolvedModule
      if (!resolved || resolved.isExternalLibraryImport) continue
      const target = path.relative(root, resolved.resolvedFileName)
      if (known.has(target) && target !== file) edges.add(target)
    }
    graph.set(file, edges)
  }
  return graph
}

/** The circles: groups of two or more files that reach each other (Tarjan's strongly connected components). */
export function circles(graph: ReadonlyMap<string, ReadonlySet<string>>): string[][] {
  let counter = 0
  const index = new Map<string, number>()
  const low = new Map<string, number>()
  const stack: string[] = []
  const onStack = new Set<string>()
  const found: string[][] = []
  const visit = (node: string) => {
    index.set(node, counter)
    low.set(node, counter++)
    stack.push(node)
    onStack.add(node)
    for (const next of graph.get(node) ?? []) {
      if (!index.has(next)) {
        visit(next)
        low.set(node, Math.min(low.get(node)!, low.get(next)!))
      } else if (onStack.has(next)) low.set(node, Math.min(low.get(node)!, index.get(next)!))
    }
    if (low.get(node) !== index.get(node)) return
    const group: string[] = []
    let member: string
    do {
      member = stack.pop()!
      onStack.delete(member)
      group.push(member)
    } while (member !== node)
    if (group.length > 1) found.push(group.sort())
  }
  for (const node of graph.keys()) if (!index.has(node)) visit(node)
  return found
}
