/**
 * Checks documents against the Studio schema's own validation rules, without a Studio
 * (and without a Sanity login, which `sanity documents validate` needs): used by the seed
 * tests and by `npm run content:publish` so local content obeys the Studio's limits.
 * Each field's `validation` function is called with a recording rule, and the recorded
 * constraints (required, min, max, integer, uri, unique, custom) are applied to the value.
 * Rules that end in `.warning()` are advice, not errors, as in the Studio.
 */
type Recorded = { name: string; args: unknown[] }
type FieldDef = {
  name: string
  type: string
  fields?: FieldDef[]
  of?: FieldDef[]
  to?: { type: string }[]
  options?: { list?: (string | { value: string })[] }
  validation?: (rule: unknown) => unknown
}
type TypeDef = FieldDef & { name: string }

function record(validation: FieldDef['validation']): Recorded[] {
  if (!validation) return []
  const calls: Recorded[] = []
  const proxy: unknown = new Proxy(
    {},
    {
      get: (_target, name) => (...args: unknown[]) => {
        calls.push({ name: String(name), args })
        return proxy
      },
    },
  )
  validation(proxy)
  return calls.some((call) => call.name === 'warning') ? [] : calls
}

const isEmpty = (value: unknown) =>
  value === undefined || value === null || value === '' || (Array.isArray(value) && value.length === 0)

const sizeOf = (value: unknown): number | undefined =>
  typeof value === 'string' ? [...value].length : Array.isArray(value) ? value.length : typeof value === 'number' ? value : undefined

export function validateDocuments(types: TypeDef[], documents: Record<string, unknown>[]): string[] {
  const byName = new Map(types.map((type) => [type.name, type]))
  const ids = new Set(documents.map((doc) => doc._id as string))
  const problems: string[] = []

  function check(field: FieldDef, value: unknown, path: string, parent: unknown) {
    for (const { name, args } of record(field.validation)) {
      const size = sizeOf(value)
      if (name === 'required' && isEmpty(value)) problems.push(`${path}: required`)
      if (isEmpty(value)) continue
      if (name === 'max' && size !== undefined && size > (args[0] as number)) problems.push(`${path}: longer than ${args[0]}`)
      if (name === 'min' && size !== undefined && size < (args[0] as number)) problems.push(`${path}: shorter than ${args[0]}`)
      if (name === 'integer' && !Number.isInteger(value)) problems.push(`${path}: not an integer`)
      if (name === 'unique' && Array.isArray(value)) {
        const seen = value.map((item) => JSON.stringify({ ...item, _key: undefined }))
        if (new Set(seen).size !== seen.length) problems.push(`${path}: duplicate items`)
      }
      if (name === 'custom') {
        const verdict = (args[0] as (v: unknown, c: unknown) => unknown)(value, { parent })
        if (verdict !== true) problems.push(`${path}: ${String(verdict)}`)
      }
    }
    if (isEmpty(value)) return
    const list = field.options?.list?.map((item) => (typeof item === 'string' ? item : item.value))
    if (list && !list.includes(value as string)) problems.push(`${path}: "${String(value)}" is not one of ${list.join(', ')}`)
    walk(field, value, path)
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
          const member =
            field.of?.find((candidate) => typeof item !== 'object' || candidate.name === item._type || candidate.type === item._type) ??
            field.of?.[0]
          if (!member) return
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

  for (const doc of documents) {
    const type = byName.get(doc._type as string)
    if (!type || type.type !== 'document') {
      problems.push(`${doc._id}: unknown document type ${String(doc._type)}`)
      continue
    }
    walk({ ...type, type: 'object' }, doc, String(doc._id))
  }
  return problems
}
