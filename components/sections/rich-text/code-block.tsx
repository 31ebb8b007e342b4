import { stegaClean } from '@sanity/client/stega'
import { highlightCode } from './highlight'

export type CodeValue = { code?: string; language?: string; filename?: string }

/** A post's code block, coloured on the server; long lines scroll inside the block, never the page. */
export async function CodeBlock({ value }: { value: CodeValue }) {
  const code = stegaClean(value.code ?? '')
  if (!code) return null
  const html = await highlightCode(code, stegaClean(value.language))
  return (
    <figure className="mt-6 overflow-hidden rounded-xl border border-slate-200">
      {value.filename ? (
        <figcaption className="border-b border-slate-200 bg-slate-50 px-4 py-2 font-mono text-sm text-slate-700">{value.filename}</figcaption>
      ) : null}
      {/* Shiki's output: every character of the code is escaped by it. */}
      <div className="code-block text-sm" dangerouslySetInnerHTML={{ __html: html }} />
    </figure>
  )
}
