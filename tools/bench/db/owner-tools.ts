/**
 * The founders' tools at the bench's largest list, as the founders run them: `npm run
 * waitlist:stats`, `waitlist:list <file>`, `waitlist:export <file>` and `waitlist:console`, each a
 * child process reading through supabase-js with NEXT_PUBLIC_SUPABASE_URL and
 * SUPABASE_SERVICE_ROLE_KEY, i.e. over REST (the local double over the bench's PostgreSQL,
 * tools/supabase-local/server.ts startRestOver). Only their command lines and environment are
 * used, so any rewrite of the tools that keeps them is measured the same way.
 *
 * Peak memory is the largest VmHWM (/proc/<pid>/status) of any process in the child's tree, read
 * every 100 ms (npm and tsx start a process each; the tool's is the largest). Each child has a
 * deadline: past it the process group is stopped and the run reported over target, not waited for.
 */
import { spawn } from 'node:child_process'
import { createReadStream } from 'node:fs'
import { mkdtemp, readdir, readFile, rm, writeFile } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import path from 'node:path'
import { CONSENTED_IMPORT_TOOL, IMPORT_TOOL, type ToolRun } from './targets'

/** The pids below `root` (itself included), from /proc's parent links. */
async function tree(root: number): Promise<number[]> {
  const parents = new Map<number, number>()
  for (const name of await readdir('/proc').catch(() => [] as string[])) {
    if (!/^\d+$/.test(name)) continue
    const stat = await readFile(`/proc/${name}/stat`, 'utf8').catch(() => '')
    const ppid = Number(stat.slice(stat.lastIndexOf(')') + 2).split(' ')[1])
    if (ppid) parents.set(Number(name), ppid)
  }
  const found = [root]
  for (let i = 0; i < found.length; i++) for (const [pid, ppid] of parents) if (ppid === found[i]) found.push(pid)
  return found
}

async function peakKb(pids: number[]): Promise<number> {
  let peak = 0
  for (const pid of pids) {
    const status = await readFile(`/proc/${pid}/status`, 'utf8').catch(() => '')
    const kb = Number(/VmHWM:\s+(\d+)/.exec(status)?.[1] ?? 0)
    peak = Math.max(peak, kb)
  }
  return peak
}

interface Child {
  /** Resolves when the process exits (or is stopped at the deadline). */
  done: Promise<{ code: number | null; timedOut: boolean; stderr: string }>
  /** Lines of its standard output, as they come. */
  onLine(listener: (line: string) => void): void
  stop(): void
  peakMb(): number | null
}

function run(args: string[], env: NodeJS.ProcessEnv, deadlineMs: number): Child {
  const child = spawn('npm', ['run', '--silent', ...args], { env, detached: true, stdio: ['ignore', 'pipe', 'pipe'] })
  const pid = child.pid as number
  let peak = 0
  let stderr = ''
  const listeners: ((line: string) => void)[] = []
  let buffered = ''
  child.stdout.on('data', (chunk: Buffer) => {
    buffered += chunk.toString('utf8')
    const lines = buffered.split('\n')
    buffered = lines.pop() ?? ''
    for (const line of lines) for (const listener of listeners) listener(line)
  })
  child.stderr.on('data', (chunk: Buffer) => {
    stderr = (stderr + chunk.toString('utf8')).slice(-2000)
  })
  const stop = () => {
    try {
      process.kill(-pid, 'SIGTERM')
    } catch {
      // Already gone.
    }
  }
  let polling = true
  void (async () => {
    while (polling) {
      peak = Math.max(peak, await peakKb(await tree(pid)))
      await new Promise((resolve) => setTimeout(resolve, 100))
    }
  })()
  let timedOut = false
  const timer = setTimeout(() => {
    timedOut = true
    stop()
  }, deadlineMs)
  const done = new Promise<{ code: number | null; timedOut: boolean; stderr: string }>((resolve) => {
    child.on('exit', (code) => {
      polling = false
      clearTimeout(timer)
      resolve({ code, timedOut, stderr })
    })
  })
  return { done, onLine: (listener) => listeners.push(listener), stop, peakMb: () => (peak ? Math.round(peak / 1024) : null) }
}

async function countLines(file: string): Promise<number> {
  let lines = 0
  for await (const chunk of createReadStream(file)) for (const byte of chunk as Buffer) if (byte === 10) lines++
  return lines
}

/** One tool to its end (or deadline): wall time, peak memory, and why it failed if it did. */
async function timeTool(tool: string, args: string[], env: NodeJS.ProcessEnv, deadlineMs: number, name = tool): Promise<ToolRun> {
  const started = performance.now()
  const child = run([tool, ...(args.length ? ['--', ...args] : [])], env, deadlineMs)
  const { code, timedOut, stderr } = await child.done
  const ms = performance.now() - started
  const problem = timedOut
    ? `stopped at its ${Math.round(deadlineMs / 1000)} s deadline`
    : code === 0
      ? undefined
      : `exit ${code}: ${stderr.trim().split('\n').at(-1) ?? ''}`
  return { tool: name, ms, peakMb: child.peakMb(), ...(problem ? { problem } : {}) }
}

/** The console: started, its page asked for once it prints its address, the first byte timed. */
async function timeConsole(env: NodeJS.ProcessEnv, port: number, deadlineMs: number): Promise<ToolRun> {
  const started = performance.now()
  const child = run(['waitlist:console', '--', '--port', String(port)], env, deadlineMs)
  const address = new Promise<string | null>((resolve) => {
    child.onLine((line) => {
      const match = /Founders' console: (\S+)/.exec(line)
      if (match) resolve(match[1] as string)
    })
    void child.done.then(() => resolve(null))
  })
  let firstByteMs: number | undefined
  let problem: string | undefined
  try {
    const url = await address
    if (!url) problem = 'exited before printing its address'
    else {
      const asked = performance.now()
      const response = await fetch(url, { signal: AbortSignal.timeout(Math.max(1, Math.round(deadlineMs - (asked - started)))) })
      const reader = response.body?.getReader()
      await reader?.read()
      firstByteMs = performance.now() - asked
      // The whole page, so the peak memory is the page's too.
      while (reader && !(await reader.read()).done) {
        // Drained.
      }
      if (!response.ok) problem = `answered ${response.status}`
    }
  } catch (error) {
    problem = `over its ${Math.round(deadlineMs / 1000)} s deadline (${error instanceof Error ? error.message : String(error)})`
  }
  const ms = performance.now() - started
  const peakMb = child.peakMb()
  child.stop()
  await child.done
  return { tool: 'console (first page)', ms, peakMb, ...(firstByteMs !== undefined ? { firstByteMs } : {}), ...(problem ? { problem } : {}) }
}

export async function timeOwnerTools(
  { url, serviceRoleKey, consolePort, deadlineMs, rows }: { url: string; serviceRoleKey: string; consolePort: number; deadlineMs: number; rows: number },
  log: (line: string) => void,
): Promise<ToolRun[]> {
  const env = { ...process.env, NEXT_PUBLIC_SUPABASE_URL: url, SUPABASE_SERVICE_ROLE_KEY: serviceRoleKey }
  const dir = await mkdtemp(path.join(tmpdir(), 'bench-db-owner-'))
  const runs: ToolRun[] = []
  try {
    runs.push(await timeConsole(env, consolePort, deadlineMs))
    log(`  console: ${describe(runs.at(-1))}`)
    runs.push(await timeTool('waitlist:stats', [], env, deadlineMs))
    log(`  waitlist:stats: ${describe(runs.at(-1))}`)
    runs.push(await timeTool('waitlist:list', [path.join(dir, 'list.txt')], env, deadlineMs))
    log(`  waitlist:list: ${describe(runs.at(-1))}`)
    const csv = path.join(dir, 'export.csv')
    const exported = await timeTool('waitlist:export', [csv], env, deadlineMs)
    if (!exported.problem) {
      const written = Math.max(0, (await countLines(csv)) - 1)
      exported.rowsPerSecond = (written / exported.ms) * 1000
      if (written < rows) exported.problem = `wrote ${written} rows of ${rows}`
    }
    runs.push(exported)
    log(`  waitlist:export: ${describe(exported)}`)
    // Last: they add their people to the list (bench-db.ts takes them out again after). Pending,
    // then with a consent: confirmed after the commit, through the line and a webhook each.
    const list = path.join(dir, 'import.csv')
    await writeFile(list, importCsv(IMPORT_ROWS))
    runs.push(await timeTool('waitlist:import', [list], env, deadlineMs, IMPORT_TOOL))
    log(`  ${IMPORT_TOOL}: ${describe(runs.at(-1))}`)
    const consented = path.join(dir, 'consented.csv')
    await writeFile(consented, importCsv(IMPORT_ROWS, 'consented'))
    // Its own, longer deadline: past its target it is still timed to the end, not cut at the others' deadline.
    const consentedDeadlineMs = Math.max(deadlineMs, 600_000)
    runs.push(await timeTool('waitlist:import', [consented, '--consented', 'Opted in on oldtool, 2026'], env, consentedDeadlineMs, CONSENTED_IMPORT_TOOL))
    log(`  ${CONSENTED_IMPORT_TOOL}: ${describe(runs.at(-1))}`)
  } finally {
    await rm(dir, { recursive: true, force: true })
  }
  return runs
}

export const IMPORT_ROWS = 100_000

/**
 * A list from another tool: every row good, a time each (two a minute over the last months, out
 * of order in the file), a tenth answering the bench's question (bulk.ts, BENCH_QUESTIONS).
 */
export function importCsv(rows: number, label = 'imported'): string {
  const lines = ['name,email,company,signed_up_at,source,role']
  const start = Date.UTC(2026, 0, 1)
  for (let i = 1; i <= rows; i++) {
    const minute = (i * 7919) % rows
    lines.push(
      `Imported ${i},${label}-${i}@bench-import.example,Company ${i % 997},${new Date(start + minute * 30_000).toISOString()},oldtool,${i % 10 === 0 ? 'product-manager' : ''}`,
    )
  }
  return `${lines.join('\n')}\n`
}

const describe = (run: ToolRun | undefined) =>
  run ? `${(run.ms / 1000).toFixed(1)} s, peak ${run.peakMb ?? '?'} MB${run.problem ? `, ${run.problem}` : ''}` : '?'
