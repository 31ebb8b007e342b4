import { existsSync } from 'node:fs'
import { run } from './run'

/**
 * A program from a Debian package: at `override` (an environment variable's value) when set, else
 * at `binary`, installed with apt-get on a fresh machine (CI and our machines run as root, and
 * reach only the npm and Debian registries); otherwise the error says how to install it.
 */
export async function ensureDebianBinary({
  binary,
  pkg,
  override,
  purpose,
}: {
  binary: string
  pkg: string
  override: { name: string; value: string | undefined }
  purpose: string
}): Promise<string> {
  if (override.value) {
    if (!existsSync(override.value)) throw new Error(`${override.name}=${override.value} does not exist`)
    return override.value
  }
  if (existsSync(binary)) return binary
  if (process.getuid?.() !== 0) throw new Error(`No ${binary}. Install it (sudo apt-get install ${pkg}) or set ${override.name}.`)
  console.log(`Installing ${pkg} from Debian (apt-get install ${pkg}) for ${purpose}…`)
  await aptInstall(pkg)
  if (!existsSync(binary)) throw new Error(`apt-get finished but ${binary} is missing`)
  return binary
}

/** `apt-get install` of one package, without questions or recommended extras. */
export async function aptInstall(pkg: string): Promise<void> {
  const env = { ...process.env, DEBIAN_FRONTEND: 'noninteractive' }
  await run('apt-get', ['update', '-qq'], { env })
  await run('apt-get', ['install', '-y', '-qq', '--no-install-recommends', pkg], { env })
}
