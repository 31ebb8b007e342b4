import { existsSync } from 'node:fs'
import { run } from './run'

/** A program (or file) a Debian package installs, and the environment variable that points at another copy, if any. */
export type DebianBinary = {
  binary: string
  pkg: string
  override?: { name: string; value: string | undefined }
}

/**
 * A program from a Debian package: at `override` (an environment variable's value) when set, else
 * at `binary`, installed with apt-get on a fresh machine (CI and our machines run as root, and
 * reach only the npm and Debian registries); otherwise the error says how to install it.
 */
export async function ensureDebianBinary({ purpose, ...binary }: Required<DebianBinary> & { purpose: string }): Promise<string> {
  const [found] = await ensureDebianBinaries([binary], purpose)
  return found!
}

/**
 * Several programs as ensureDebianBinary finds them, in their order: the missing ones installed by
 * one apt-get, so a fresh machine updates the package lists once.
 */
export async function ensureDebianBinaries(binaries: DebianBinary[], purpose: string): Promise<string[]> {
  for (const { override } of binaries) {
    if (override?.value && !existsSync(override.value)) throw new Error(`${override.name}=${override.value} does not exist`)
  }
  const missing = binaries.filter(({ binary, override }) => !override?.value && !existsSync(binary))
  if (missing.length > 0) {
    const pkgs = [...new Set(missing.map(({ pkg }) => pkg))]
    if (process.getuid?.() !== 0) {
      const names = missing.map(({ binary, override }) => (override ? `${binary} (or set ${override.name})` : binary)).join(', ')
      throw new Error(`No ${names}. Install ${pkgs.length > 1 ? 'them' : 'it'}: sudo apt-get install ${pkgs.join(' ')}.`)
    }
    console.log(`Installing ${pkgs.join(', ')} from Debian (apt-get install ${pkgs.join(' ')}) for ${purpose}…`)
    await aptInstall(...pkgs)
    for (const { binary } of missing) if (!existsSync(binary)) throw new Error(`apt-get finished but ${binary} is missing`)
  }
  return binaries.map(({ binary, override }) => override?.value || binary)
}

/**
 * `apt-get install` of packages, without questions or recommended extras. It waits for another
 * apt-get or dpkg on the machine (another checkout's tests installing theirs) instead of failing.
 */
export async function aptInstall(...pkgs: string[]): Promise<void> {
  const env = { ...process.env, DEBIAN_FRONTEND: 'noninteractive' }
  const wait = ['-o', 'DPkg::Lock::Timeout=600']
  await run('apt-get', [...wait, 'update', '-qq'], { env })
  await run('apt-get', [...wait, 'install', '-y', '-qq', '--no-install-recommends', ...pkgs], { env })
}
