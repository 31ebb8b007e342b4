import { spawn, type ChildProcess } from 'node:child_process'
import { chmod, mkdtemp, rm, writeFile } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import path from 'node:path'
import { ensureDebianBinary } from './debian'
import { waitForPort } from './run'

const VARNISHD = '/usr/sbin/varnishd'

/**
 * Debian's Varnish, the shared cache the fault tests put in front of the site
 * (e2e/faults-shared-cache.spec.ts): installed with apt-get when missing and running as root (CI,
 * a fresh machine); otherwise the error says how. VARNISHD points at another installation.
 */
export function ensureVarnish(): Promise<string> {
  return ensureDebianBinary({
    binary: VARNISHD,
    pkg: 'varnish',
    override: { name: 'VARNISHD', value: process.env.VARNISHD },
    purpose: 'the shared-cache tests',
  })
}

/**
 * A cache that behaves like a CDN in front of the site, not like Varnish's defaults: Varnish's
 * builtin VCL passes every request that carries a Cookie or Authorization and never stores a
 * response that sets a cookie, which would keep every participant's answer out of the cache and
 * let a test pass whatever the site sends. Here only the site's own headers decide: `Vary` (which
 * Varnish honours itself), and `Cache-Control`'s `private`, `no-store` and `no-cache` (and no
 * lifetime at all), which keep a response out.
 */
export function cdnLikeVcl(backendPort: number): string {
  return `vcl 4.1;

backend site {
  .host = "127.0.0.1";
  .port = "${backendPort}";
}

sub vcl_recv {
  if (req.method != "GET" && req.method != "HEAD") {
    return (pass);
  }
  return (hash);
}

sub vcl_backend_response {
  if (beresp.ttl <= 0s || beresp.http.Cache-Control ~ "(?i)(private|no-store|no-cache)" || beresp.http.Vary == "*") {
    set beresp.uncacheable = true;
    set beresp.ttl = 120s;
  }
  return (deliver);
}

sub vcl_deliver {
  if (obj.hits > 0) {
    set resp.http.X-Cache = "HIT";
  } else {
    set resp.http.X-Cache = "MISS";
  }
}
`
}

export interface LocalVarnish {
  url: string
  stop(): Promise<void>
}

/**
 * varnishd in the foreground on 127.0.0.1:`port`, caching the site at 127.0.0.1:`backendPort` in
 * 32 MB of memory, its files in a folder of its own (removed at stop). Its start is bounded (10 s)
 * and so is its stop (5 s, then SIGKILL), so a test never hangs on it.
 */
export async function startVarnish(port: number, backendPort: number): Promise<LocalVarnish> {
  const varnishd = await ensureVarnish()
  // Readable by all: started as root, varnishd compiles the VCL as its own unprivileged user.
  const dir = await mkdtemp(path.join(tmpdir(), 'varnish-'))
  await chmod(dir, 0o755)
  const vcl = path.join(dir, 'cdn.vcl')
  await writeFile(vcl, cdnLikeVcl(backendPort), { mode: 0o644 })
  const child: ChildProcess = spawn(varnishd, ['-F', '-a', `127.0.0.1:${port}`, '-f', vcl, '-n', path.resolve(dir, 'work'), '-s', 'malloc,32m', '-T', 'none'], {
    stdio: ['ignore', 'ignore', 'pipe'],
  })
  let log = ''
  child.stderr!.on('data', (chunk: Buffer) => (log += chunk.toString()))
  const exited = new Promise<void>((resolve) => child.once('exit', () => resolve()))
  try {
    await waitForPort(port, child, 'varnishd')
  } catch (error) {
    child.kill('SIGKILL')
    await rm(dir, { recursive: true, force: true })
    throw new Error(`${(error as Error).message}\n${log}`)
  }
  return {
    url: `http://127.0.0.1:${port}`,
    async stop() {
      if (child.exitCode === null && child.signalCode === null) {
        child.kill('SIGTERM')
        const killed = setTimeout(() => child.kill('SIGKILL'), 5_000)
        await exited
        clearTimeout(killed)
      }
      await rm(dir, { recursive: true, force: true })
    },
  }
}
