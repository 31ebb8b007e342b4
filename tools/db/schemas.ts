/**
 * Builds a database from supabase/schemas/*.sql, the declarative description of its current
 * state: every file in name order (the order Supabase's CLI uses when config.toml lists the folder
 * with a glob), all in one transaction, so a broken file leaves nothing half-built.
 */
import { readdir, readFile } from 'node:fs/promises'
import path from 'node:path'
import { fileURLToPath } from 'node:url'
import type { MigrationTarget } from '../supabase-local/migrate'

export const SCHEMAS_DIR = fileURLToPath(new URL('../../supabase/schemas/', import.meta.url))

export async function listSchemaFiles(dir = SCHEMAS_DIR): Promise<string[]> {
  return (await readdir(dir))
    .filter((entry) => entry.endsWith('.sql'))
    .sort()
    .map((entry) => path.join(dir, entry))
}

export async function applySchemas(db: MigrationTarget, dir = SCHEMAS_DIR): Promise<void> {
  const files = await listSchemaFiles(dir)
  if (files.length === 0) throw new Error(`No .sql files in ${dir}`)
  await db.transaction(async (tx) => {
    for (const file of files) {
      try {
        await tx.exec(await readFile(file, 'utf8'))
      } catch (error) {
        const reason = error instanceof Error ? error.message : String(error)
        throw new Error(`Schema file ${path.basename(file)} failed: ${reason}`, { cause: error })
      }
    }
  })
}
