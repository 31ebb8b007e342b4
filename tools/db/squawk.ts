/**
 * Lints every migration with squawk (npm `squawk-cli`, whose package ships the binary; it runs
 * offline). The rules it applies are configured in .squawk.toml at the root, with the reason for
 * each rule turned off.
 */
import { readdir } from 'node:fs/promises'
import path from 'node:path'
import { run } from '../local/run'

export async function lintMigrations(dir: string): Promise<boolean> {
  const files = (await readdir(dir))
    .filter((entry) => entry.endsWith('.sql'))
    .sort()
    .map((entry) => path.join(dir, entry))
  try {
    await run('squawk', ['--config', '.squawk.toml', ...files])
    console.log(`✔ squawk: ${files.length} migrations pass.`)
    return true
  } catch {
    console.error('✘ squawk found problems in the migrations (above).')
    return false
  }
}
