/**
 * What a database declares, read from its catalog as one flat map: an object's name (e.g.
 * `function public.waitlist_me(token text)`, `column public.waitlist.email`) to a text that
 * changes whenever anything about the object does. Two databases built two ways (the migrations'
 * history and the declarative schemas) are the same when their maps are equal; `diffCatalogs`
 * names every object that is not.
 *
 * Covers what our SQL declares: roles, schemas, extensions, default privileges, tables and their
 * row-level security, columns (type, default, nullability, identity, generated), constraints,
 * indexes, policies, triggers, functions (the full definition), sequences, views, types, grants
 * (table, column, function, schema), comments, and the rows of every table (the settings the
 * migrations insert). Supabase's own schemas and the migration bookkeeping are left out.
 */

export interface CatalogSource {
  query<T>(sql: string, params?: unknown[]): Promise<{ rows: T[] }>
}

export type Catalog = Map<string, string>

/** Column values that differ on every database by design (random per build), compared as present only. */
const RANDOM_COLUMNS: Record<string, readonly string[]> = {
  // The salt of client hashes: generated once per database.
  'private.waitlist_salt': ['salt'],
}

const USER_SCHEMA = `n.nspname not in ('pg_catalog', 'information_schema', 'pg_toast', 'supabase_migrations')
  and n.nspname not like 'pg\\_temp%' and n.nspname not like 'pg\\_toast%'`

/**
 * aclitems sorted, so the order in which grants were made does not matter; a null ACL (never
 * granted or revoked) as the default it stands for, so `revoke all` on a table nobody else could
 * use anyway changes nothing.
 */
const acl = (column: string, kind?: string, owner?: string) =>
  `coalesce((select string_agg(a::text, ' ' order by a::text) from unnest(${kind ? `coalesce(${column}, acldefault(${kind}, ${owner}))` : column}) a), '(none)')`

interface Row {
  key: string
  value: string
}

const QUERIES: string[] = [
  `select 'role ' || rolname as key,
          concat_ws(' ', case when rolcanlogin then 'login' else 'nologin' end, case when rolinherit then 'inherit' else 'noinherit' end,
                    case when rolbypassrls then 'bypassrls' end, case when rolsuper then 'superuser' end) as value
     from pg_roles where rolname in ('anon', 'authenticated', 'service_role')`,
  `select 'schema ' || n.nspname as key,
          concat('acl: ', ${acl('n.nspacl', "'n'", 'n.nspowner')}, E'\\ncomment: ', obj_description(n.oid, 'pg_namespace')) as value
     from pg_namespace n where ${USER_SCHEMA}`,
  `select 'extension ' || extname as key, 'schema ' || extnamespace::regnamespace::text as value from pg_extension where extname <> 'plpgsql'`,
  `select 'default privileges ' || coalesce(n.nspname, '(all schemas)') || ' ' || d.defaclobjtype::text || ' for ' || d.defaclrole::regrole::text as key,
          ${acl('d.defaclacl')} as value
     from pg_default_acl d left join pg_namespace n on n.oid = d.defaclnamespace`,
  `select case c.relkind when 'r' then 'table ' when 'p' then 'table ' when 'v' then 'view ' when 'm' then 'materialized view '
                         when 'S' then 'sequence ' else 'relation ' end || n.nspname || '.' || c.relname as key,
          concat('kind: ', c.relkind, E'\\nrow level security: ', c.relrowsecurity, ' forced: ', c.relforcerowsecurity,
                 E'\\nacl: ', ${acl('c.relacl', "case when c.relkind = 'S' then 's' else 'r' end::\"char\"", 'c.relowner')}, E'\\ncomment: ', obj_description(c.oid, 'pg_class'),
                 case when c.relkind in ('v', 'm') then E'\\ndefinition: ' || pg_get_viewdef(c.oid) end,
                 case when c.relkind = 'S' then (select E'\\nsequence: ' || concat_ws(' ', s.seqtypid::regtype, s.seqstart, s.seqincrement, s.seqmin, s.seqmax, s.seqcache, s.seqcycle)
                                                   from pg_sequence s where s.seqrelid = c.oid) end) as value
     from pg_class c join pg_namespace n on n.oid = c.relnamespace
    where ${USER_SCHEMA} and c.relkind in ('r', 'p', 'v', 'm', 'S')`,
  `select 'column ' || n.nspname || '.' || c.relname || '.' || a.attname as key,
          concat('position: ', row_number() over (partition by c.oid order by a.attnum),
                 E'\\ntype: ', format_type(a.atttypid, a.atttypmod), case when a.attnotnull then ' not null' end,
                 case when a.attcollation <> 0 and a.attcollation <> t.typcollation then ' collate ' || a.attcollation::regcollation::text end,
                 E'\\ndefault: ', pg_get_expr(d.adbin, d.adrelid),
                 case a.attidentity when 'a' then E'\\nidentity: always' when 'd' then E'\\nidentity: by default' end,
                 case a.attgenerated when 's' then E'\\ngenerated: stored' end,
                 E'\\nacl: ', ${acl('a.attacl')}, E'\\ncomment: ', col_description(c.oid, a.attnum)) as value
     from pg_attribute a
     join pg_class c on c.oid = a.attrelid
     join pg_namespace n on n.oid = c.relnamespace
     join pg_type t on t.oid = a.atttypid
     left join pg_attrdef d on d.adrelid = a.attrelid and d.adnum = a.attnum
    where ${USER_SCHEMA} and c.relkind in ('r', 'p', 'v', 'm') and a.attnum > 0 and not a.attisdropped`,
  `select 'constraint ' || n.nspname || '.' || c.relname || '.' || k.conname as key,
          concat(pg_get_constraintdef(k.oid), E'\\ncomment: ', obj_description(k.oid, 'pg_constraint')) as value
     from pg_constraint k join pg_class c on c.oid = k.conrelid join pg_namespace n on n.oid = c.relnamespace
    -- Not-null constraints (catalogued since PostgreSQL 18, named after the column's first name) are
    -- the columns' nullability, compared there.
    where ${USER_SCHEMA} and k.contype <> 'n'`,
  `select 'index ' || n.nspname || '.' || i.relname as key,
          concat(pg_get_indexdef(i.oid), E'\\ncomment: ', obj_description(i.oid, 'pg_class')) as value
     from pg_index x join pg_class i on i.oid = x.indexrelid join pg_namespace n on n.oid = i.relnamespace
    where ${USER_SCHEMA}`,
  `select 'policy ' || schemaname || '.' || tablename || '.' || policyname as key,
          concat(permissive, ' for ', cmd, ' to ', array_to_string(roles, ', '), E'\\nusing: ', qual, E'\\nwith check: ', with_check) as value
     from pg_policies`,
  `select 'trigger ' || n.nspname || '.' || c.relname || '.' || t.tgname as key,
          concat(pg_get_triggerdef(t.oid), E'\\nenabled: ', t.tgenabled, E'\\ncomment: ', obj_description(t.oid, 'pg_trigger')) as value
     from pg_trigger t join pg_class c on c.oid = t.tgrelid join pg_namespace n on n.oid = c.relnamespace
    where ${USER_SCHEMA} and not t.tgisinternal`,
  `select 'function ' || n.nspname || '.' || p.proname || '(' || pg_get_function_identity_arguments(p.oid) || ')' as key,
          concat(case when p.prokind in ('a', 'w') then 'aggregate' else pg_get_functiondef(p.oid) end,
                 E'\\nacl: ', ${acl('p.proacl', "'f'", 'p.proowner')}, E'\\ncomment: ', obj_description(p.oid, 'pg_proc')) as value
     from pg_proc p join pg_namespace n on n.oid = p.pronamespace
    where ${USER_SCHEMA} and not exists (select 1 from pg_depend d where d.objid = p.oid and d.deptype = 'e')`,
  `select 'type ' || n.nspname || '.' || t.typname as key,
          concat('kind: ', t.typtype,
                 E'\\nlabels: ', (select string_agg(e.enumlabel, ', ' order by e.enumsortorder) from pg_enum e where e.enumtypid = t.oid),
                 E'\\nbase: ', case when t.typtype = 'd' then format_type(t.typbasetype, t.typtypmod) end,
                 E'\\nacl: ', ${acl('t.typacl', "'T'", 't.typowner')}, E'\\ncomment: ', obj_description(t.oid, 'pg_type')) as value
     from pg_type t join pg_namespace n on n.oid = t.typnamespace
    where ${USER_SCHEMA} and t.typtype in ('e', 'd')
       or (${USER_SCHEMA} and t.typtype = 'c' and (select c.relkind from pg_class c where c.oid = t.typrelid) = 'c')`,
]

/** Every table's rows as JSON lines, in a stable order (so settings rows compare). */
async function tableRows(db: CatalogSource): Promise<Row[]> {
  const { rows: tables } = await db.query<{ name: string }>(
    `select format('%I.%I', n.nspname, c.relname) as name from pg_class c join pg_namespace n on n.oid = c.relnamespace
      where ${USER_SCHEMA} and c.relkind in ('r', 'p') order by 1`,
  )
  const result: Row[] = []
  for (const { name } of tables) {
    const random = RANDOM_COLUMNS[name] ?? []
    const { rows } = await db.query<{ line: string }>(`select (to_jsonb(t) - $1::text[])::text as line from ${name} t order by 1`, [random])
    if (rows.length === 0) continue
    result.push({ key: `rows ${name}`, value: rows.map((row) => row.line).join('\n') })
  }
  return result
}

export async function readCatalog(db: CatalogSource): Promise<Catalog> {
  const catalog: Catalog = new Map()
  for (const sql of QUERIES) {
    for (const row of (await db.query<Row>(sql)).rows) catalog.set(row.key, row.value)
  }
  for (const row of await tableRows(db)) catalog.set(row.key, row.value)
  return new Map([...catalog].sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0)))
}

export interface CatalogDifference {
  object: string
  /** Undefined when the object is missing on that side. */
  left?: string
  right?: string
}

export function diffCatalogs(left: Catalog, right: Catalog): CatalogDifference[] {
  const differences: CatalogDifference[] = []
  const keys = [...new Set([...left.keys(), ...right.keys()])].sort()
  for (const object of keys) {
    const a = left.get(object)
    const b = right.get(object)
    if (a !== b) differences.push({ object, ...(a === undefined ? {} : { left: a }), ...(b === undefined ? {} : { right: b }) })
  }
  return differences
}

/** One difference for a person: the object, then both sides, or where it is missing. */
export function describeDifference({ object, left, right }: CatalogDifference, leftName: string, rightName: string): string {
  const side = (name: string, text: string | undefined) => (text === undefined ? `  ${name}: (missing)` : `  ${name}:\n${text.replace(/^/gm, '    | ')}`)
  return `✘ ${object}\n${side(leftName, left)}\n${side(rightName, right)}`
}
