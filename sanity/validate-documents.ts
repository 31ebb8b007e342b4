import { evaluateQuery, type SeedDocument } from './seed/dataset'

/**
 * Checks documents against the Studio schema's own validation rules, without a Studio
 * (and without a Sanity login, which `sanity documents validate` needs): used by the seed
 * tests and by `npm run content:publish` so local content obeys the Studio's limits.
 * Each field's `validation` function is called with a recording rule, and the recorded
 * constraints (required, min, max, integer, uri, unique, custom) are applied to the value.
 * Custom rules get what the Studio gives them: the parent, the document, and a client whose
 * queries run over the whole dataset being checked (groq-js), so rules that look at other
 * documents (unique slugs, redirect loops) decide the same here as in the Studio.
 * Rules that end in `.warning()` are advice, not errors, as in the Studio.
 */
type Recorded = { name: string; args: unknown[] }
type FieldDef = {
  name: string
  type: string
  fields?: FieldDef[]
  of?: FieldDef[]
  to?: { type: string }[]
  options?: { list?: (string | number | { value: string | number })[]; languageAlternatives?: { value: string }[] }
  styles?: { value: string }[]
  lists?: { value: string }[]
  marks?: { decorators?: { value: string }[]; annotations?: FieldDef[] }
  validation?: (rule: unknown) => unknown
}
type TypeDef = FieldDef & { name: string }

function record(validation: FieldDef['validation']): Recorded[] {
  if (!validation) return []
  // Each chain started on the rule is recorded apart: a field may return several rules
  // (`[rule.max(70).warning(…), rule.custom(…)]`), and only the chains ending in a warning are advice.
  const chains: Recorded[][] = []
  const chain = (calls: Recorded[]): unknown =>
    new Proxy(
      {},
      {
        get:
          (_target, name) =>
          (...args: unknown[]) => {
            calls.push({ name: String(name), args })
            return chain(calls)
          },
      },
    )
  const rule = new Proxy(
    {},
    {
      get:
        (_target, name) =>
        (...args: unknown[]) => {
          const calls: Recorded[] = [{ name: String(name), args }]
          chains.push(calls)
          return chain(calls)
        },
    },
  )
  validation(rule)
  return chains.filter((calls) => !calls.some((call) => call.name === 'warning')).flat()
}

const isEmpty = (value: unknown) => value === undefined || value === null || value === '' || (Array.isArray(value) && value.length === 0)

const sizeOf = (value: unknown): number | undefined =>
  typeof value === 'string' ? [...value].length : Array.isArray(value) ? value.length : typeof value === 'number' ? value : undefined

/** Implicit fields Sanity adds to every image value. */
const IMAGE_KEYS = new Set(['asset', 'hotspot', 'crop', 'media'])

export async function validateDocuments(types: TypeDef[], documents: Record<string, unknown>[]): Promise<string[]> {
  const byName = new Map(types.map((type) => [type.name, type]))
  const ids = new Set(documents.map((doc) => doc._id as string))
  const problems: string[] = []
  const pending: Promise<void>[] = []
  const client = { fetch: (query: string, params: Record<string, unknown> = {}) => evaluateQuery(documents as SeedDocument[], query, params) }
  let document: Record<string, unknown> = {}

  function check(field: FieldDef, value: unknown, path: string, parent: unknown) {
    for (const { name, args } of record(field.validation)) {
      const size = sizeOf(value)
      if (name === 'required' && isEmpty(value)) problems.push(`${path}: required`)
      // As in the Studio, custom rules see empty values too (a field may be required only in some cases).
      if (isEmpty(value) && name !== 'custom') continue
      if (name === 'max' && size !== undefined && size > (args[0] as number)) problems.push(`${path}: longer than ${args[0]}`)
      if (name === 'min' && size !== undefined && size < (args[0] as number)) problems.push(`${path}: shorter than ${args[0]}`)
      if (name === 'integer' && !Number.isInteger(value)) problems.push(`${path}: not an integer`)
      if (name === 'unique' && Array.isArray(value)) {
        const seen = value.map((item) => JSON.stringify({ ...item, _key: undefined }))
        if (new Set(seen).size !== seen.length) problems.push(`${path}: duplicate items`)
      }
      if (name === 'uri' && typeof value === 'string') {
        const schemes = ((args[0] as { scheme?: string[] } | undefined)?.scheme ?? ['http', 'https']).map((scheme) => `${scheme}:`)
        if (!URL.canParse(value) || !schemes.includes(new URL(value).protocol))
          problems.push(`${path}: must be an address starting with ${schemes.join(' or ')}`)
      }
      if (name === 'custom') {
        const context = { parent, document, path, getClient: () => client }
        const report = (verdict: unknown) => {
          if (verdict !== true) problems.push(`${path}: ${String(verdict)}`)
        }
        const verdict = (args[0] as (v: unknown, c: unknown) => unknown)(value, context)
        if (verdict instanceof Promise) pending.push(verdict.then(report))
        else report(verdict)
      }
    }
    if (isEmpty(value)) return
    const list = field.options?.list?.map((item) => (typeof item === 'object' ? item.value : item))
    if (list && !list.includes(value as string)) problems.push(`${path}: "${String(value)}" is not one of ${list.join(', ')}`)
    walk(field, value, path)
  }

  /** A Portable Text block: known style, list and marks; every mark a decorator or a defined annotation. */
  function walkBlock(field: FieldDef, value: Record<string, unknown>, path: string) {
    const styles = field.styles?.map((style) => style.value) ?? ['normal']
    const lists = field.lists?.map((list) => list.value) ?? []
    const decorators = field.marks?.decorators?.map((decorator) => decorator.value) ?? []
    const annotations = field.marks?.annotations ?? []
    if (value.style !== undefined && !styles.includes(value.style as string))
      problems.push(`${path}.style: "${String(value.style)}" is not one of ${styles.join(', ')}`)
    if (value.listItem !== undefined && !lists.includes(value.listItem as string))
      problems.push(`${path}.listItem: "${String(value.listItem)}" is not one of ${lists.join(', ') || '(no lists)'}`)
    const markDefs = (value.markDefs ?? []) as Record<string, unknown>[]
    markDefs.forEach((def, index) => {
      const annotation = annotations.find((candidate) => candidate.name === def._type)
      if (!annotation) problems.push(`${path}.markDefs[${index}]: unknown annotation ${String(def._type)}`)
      else check({ ...annotation, type: 'object', name: String(index) }, def, `${path}.markDefs[${index}]`, markDefs)
    })
    const defined = new Set(markDefs.map((def) => def._key))
    const children = value.children
    if (!Array.isArray(children) || children.length === 0) return problems.push(`${path}.children: a block needs at least one span`)
    children.forEach((span: Record<string, unknown>, index) => {
      if (span._type !== 'span' || typeof span.text !== 'string') problems.push(`${path}.children[${index}]: expected a span with text`)
      for (const mark of (span.marks ?? []) as string[]) {
        if (!decorators.includes(mark) && !defined.has(mark)) problems.push(`${path}.children[${index}]: unknown mark ${mark}`)
      }
    })
  }

  function walk(field: FieldDef, value: unknown, path: string) {
    const named = byName.get(field.type)
    if (named && named.type !== 'document') return walk({ ...named, name: field.name }, value, path)
    switch (field.type) {
      case 'string':
      case 'text':
        if (typeof value !== 'string') problems.push(`${path}: expected text`)
        break
      case 'number':
        if (typeof value !== 'number') problems.push(`${path}: expected a number`)
        break
      case 'boolean':
        if (typeof value !== 'boolean') problems.push(`${path}: expected true or false`)
        break
      case 'email':
        if (typeof value !== 'string' || !/^[^\s@]+@[^\s@]+\.[^\s@]+$/.test(value)) problems.push(`${path}: not an e-mail address`)
        break
      case 'url':
        if (typeof value !== 'string' || !URL.canParse(value)) problems.push(`${path}: not a URL`)
        break
      case 'date':
        if (typeof value !== 'string' || !/^\d{4}-\d{2}-\d{2}$/.test(value) || Number.isNaN(Date.parse(value)))
          problems.push(`${path}: not a date (YYYY-MM-DD)`)
        break
      case 'datetime':
        if (typeof value !== 'string' || !/^\d{4}-\d{2}-\d{2}T/.test(value) || Number.isNaN(Date.parse(value)))
          problems.push(`${path}: not a date and time (ISO 8601)`)
        break
      case 'code': {
        // @sanity/code-input's value: the code, its language (one the field offers) and an optional file name.
        const code = value as { code?: unknown; language?: unknown; filename?: unknown }
        const languages = field.options?.languageAlternatives?.map((language) => language.value)
        if (typeof code.code !== 'string') problems.push(`${path}.code: expected text`)
        if (languages && !languages.includes(code.language as string))
          problems.push(`${path}.language: "${String(code.language)}" is not one of ${languages.join(', ')}`)
        if (code.filename !== undefined && typeof code.filename !== 'string') problems.push(`${path}.filename: expected text`)
        break
      }
      case 'slug':
        if (typeof (value as { current?: unknown }).current !== 'string') problems.push(`${path}: a slug needs a "current" text`)
        break
      case 'block':
        walkBlock(field, value as Record<string, unknown>, path)
        break
      case 'image': {
        const asset = (value as { asset?: { _ref?: unknown } }).asset
        if (asset !== undefined && typeof asset?._ref !== 'string') problems.push(`${path}.asset: expected a reference to an image asset`)
        for (const key of Object.keys(value as object)) {
          if (!key.startsWith('_') && !IMAGE_KEYS.has(key) && !field.fields?.some((f) => f.name === key)) problems.push(`${path}.${key}: not in the schema`)
        }
        for (const child of field.fields ?? []) check(child, (value as Record<string, unknown>)[child.name], `${path}.${child.name}`, value)
        break
      }
      case 'reference': {
        const ref = (value as { _ref?: string })._ref
        if (!ref || !ids.has(ref)) problems.push(`${path}: reference to missing document ${ref}`)
        break
      }
      case 'array': {
        if (!Array.isArray(value)) {
          problems.push(`${path}: expected a list`)
          break
        }
        value.forEach((item, index) => {
          const typed = item && typeof item === 'object' && typeof item._type === 'string'
          const member = typed ? field.of?.find((candidate) => candidate.name === item._type || candidate.type === item._type) : field.of?.[0]
          if (!member) {
            problems.push(`${path}[${index}]: ${typed ? `unknown type ${item._type}` : 'unexpected value'}`)
            return
          }
          if (item && typeof item === 'object' && !('_key' in item)) problems.push(`${path}[${index}]: missing _key`)
          check({ ...member, name: String(index) }, item, `${path}[${index}]`, value)
        })
        break
      }
      default: {
        const fields = field.fields ?? named?.fields
        if (!fields) {
          problems.push(`${path}: unknown type ${field.type}`)
          break
        }
        if (typeof value !== 'object' || value === null) {
          problems.push(`${path}: expected an object`)
          break
        }
        const known = new Set(fields.map((f) => f.name))
        for (const key of Object.keys(value)) {
          if (!key.startsWith('_') && !known.has(key)) problems.push(`${path}.${key}: not in the schema`)
        }
        for (const child of fields) check(child, (value as Record<string, unknown>)[child.name], `${path}.${child.name}`, value)
      }
    }
  }

  const byId = new Map(documents.map((doc) => [doc._id as string, doc]))
  for (const doc of documents) {
    if (doc._type === TRANSLATION_METADATA) {
      problems.push(...translationProblems(doc, byId))
      continue
    }
    const type = byName.get(doc._type as string)
    if (!type || type.type !== 'document') {
      problems.push(`${doc._id}: unknown document type ${String(doc._type)}`)
      continue
    }
    document = doc
    walk({ ...type, type: 'object' }, doc, String(doc._id))
  }
  await Promise.all(pending)
  return problems
}

/** The type @sanity/document-internationalization links translations with (its schema is the plugin's, not ours). */
const TRANSLATION_METADATA = 'translation.metadata'

type TranslationItem = { _key?: string; language?: string; value?: { _ref?: string } }

/**
 * What the plugin's own rules ask of a set of translations: each entry names a language once and
 * refers to an existing document of one of `schemaTypes` in that very language.
 */
function translationProblems(doc: Record<string, unknown>, byId: ReadonlyMap<string, Record<string, unknown>>): string[] {
  const id = String(doc._id)
  const types = Array.isArray(doc.schemaTypes) ? (doc.schemaTypes as string[]) : []
  const items = Array.isArray(doc.translations) ? (doc.translations as TranslationItem[]) : []
  if (items.length === 0) return [`${id}.translations: required`]
  const seen = new Set<string>()
  return items.flatMap((item, index) => {
    const at = `${id}.translations[${index}]`
    const target = item.value?._ref ? byId.get(item.value._ref) : undefined
    const problems: string[] = []
    if (!item._key) problems.push(`${at}: missing _key`)
    if (!item.language) problems.push(`${at}: missing language`)
    else if (seen.has(item.language)) problems.push(`${at}: ${item.language} is in the set twice`)
    else seen.add(item.language)
    if (!target) problems.push(`${at}: refers to ${item.value?._ref ?? 'nothing'}, which does not exist`)
    else if (!types.includes(String(target._type))) problems.push(`${at}: ${String(target._id)} is a ${String(target._type)}, not one of ${types.join(', ')}`)
    else if (target.language !== item.language) problems.push(`${at}: ${String(target._id)} is in ${String(target.language)}, not ${item.language}`)
    return problems
  })
}
