import { spawn, type ChildProcess, type SpawnOptions } from 'node:child_process'
import { connect, createServer, type AddressInfo } from 'node:net'

/**
 * Runs a command with inherited output, or with `holdOutput` its output held and printed whole when
 * it ends (commands run side by side then do not interleave); resolves on exit 0, rejects otherwise.
 */
export function run(command: string, args: string[], { holdOutput = false, ...options }: SpawnOptions & { holdOutput?: boolean } = {}): Promise<void> {
  return new Promise((resolve, reject) => {
    const child = spawn(command, args, { stdio: holdOutput ? ['ignore', 'pipe', 'pipe'] : 'inherit', ...options })
    const held: Buffer[] = []
    if (holdOutput) for (const stream of [child.stdout, child.stderr]) stream?.on('data', (chunk: Buffer) => held.push(chunk))
    child.on('error', reject)
    // 'close' comes after the output's last chunk; 'exit' may come before it.
    child.on(holdOutput ? 'close' : 'exit', (code: number | null, signal: NodeJS.Signals | null) => {
      if (holdOutput) process.stdout.write(Buffer.concat(held))
      if (code === 0) resolve()
      else reject(new Error(`${command} ${args.join(' ')} failed (${signal ?? `exit ${code}`})`))
    })
  })
}

/** Starts long-running processes and stops them all when this process is told to stop. */
export function supervise(children: ChildProcess[]): void {
  const stop = () => {
    for (const child of children) if (child.exitCode === null) child.kill('SIGTERM')
  }
  for (const signal of ['SIGINT', 'SIGTERM'] as const) {
    process.on(signal, () => {
      stop()
      process.exit(130)
    })
  }
  for (const child of children) {
    child.on('exit', (code) => {
      // One part of the local stack died: stop the rest rather than serve half a site.
      stop()
      process.exit(code ?? 1)
    })
  }
}

export async function waitForUrl(url: string, timeoutMs = 60_000): Promise<void> {
  const deadline = Date.now() + timeoutMs
  while (Date.now() < deadline) {
    try {
      const response = await fetch(url)
      if (response.status < 500) return
    } catch {
      // not listening yet
    }
    await new Promise((resolve) => setTimeout(resolve, 250))
  }
  throw new Error(`${url} did not answer within ${timeoutMs / 1000} s`)
}

/**
 * Fails when something already listens on the port: a server left over from another run would
 * answer in place of the one about to start, and whatever is measured or tested would be it.
 */
export async function assertPortFree(port: number, purpose: string): Promise<void> {
  const inUse = await new Promise<boolean>((resolve) => {
    const socket = connect({ port, host: 'localhost' })
    socket.setTimeout(1000)
    socket.once('connect', () => {
      socket.destroy()
      resolve(true)
    })
    socket.once('timeout', () => {
      socket.destroy()
      resolve(false)
    })
    socket.once('error', () => resolve(false))
  })
  if (inUse) throw new Error(`Port ${port} (${purpose}) is already in use: stop whatever listens there (\`ss -ltnp | grep :${port}\`) and run again.`)
}

/** A port nothing listens on right now (the OS picks it), for servers a test or check starts. */
export async function freePort(): Promise<number> {
  const server = createServer()
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve))
  const { port } = server.address() as AddressInfo
  await new Promise<void>((resolve) => server.close(() => resolve()))
  return port
}

/**
 * Resolves once `child` accepts connections on 127.0.0.1:`port`; fails at once when it exits first
 * (a port taken, a bad configuration) and after `timeoutMs` when it never listens. `name` says which.
 */
export async function waitForPort(port: number, child: ChildProcess, name: string, timeoutMs = 10_000): Promise<void> {
  const deadline = Date.now() + timeoutMs
  while (Date.now() < deadline) {
    if (child.exitCode !== null) throw new Error(`${name} on port ${port} exited (code ${child.exitCode}): is the port taken?`)
    const open = await new Promise<boolean>((resolve) => {
      const socket = connect({ port, host: '127.0.0.1' })
      socket.once('connect', () => {
        socket.destroy()
        resolve(true)
      })
      socket.once('error', () => resolve(false))
    })
    if (open) return
    await new Promise((resolve) => setTimeout(resolve, 50))
  }
  throw new Error(`${name} did not listen on port ${port} within ${timeoutMs / 1000} s`)
}
