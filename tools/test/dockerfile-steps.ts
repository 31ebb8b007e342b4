/**
 * Runs the Dockerfile's steps as a script, for a machine without Docker (this one): each stage in
 * a folder of its own under a temporary directory standing for its file system, COPY from the build
 * context (less .dockerignore) or from an earlier stage's folder, RUN through bash with only the
 * stage's ARG and ENV values (beside the machine's own, less every setting of the site), then the last stage's CMD, asked for `/` until it answers
 * 200. What it cannot show is the base image itself: its Node is the one on PATH here (Node 22 from
 * node_modules/.bin), and USER is only printed.
 *
 *   tsx tools/test/dockerfile-steps.ts [--build-arg NAME=VALUE]… [--env NAME=VALUE]… [--port 3499] [--keep]
 *
 * `--build-arg` as for `docker build`; `--env` as `docker run -e`. Without a Sanity project the
 * build needs EMBEDDED_DEFAULTS=true (the seed content, as `npm run preview`) and still a waitlist
 * to name (NEXT_PUBLIC_SUPABASE_URL and _ANON_KEY: the local ones of tools/supabase-local/keys.ts
 * will do; nothing is asked of it). About three minutes here, most of it `npm install` and the build.
 */
import { spawn } from 'node:child_process'
import { cp, mkdir, mkdtemp, readFile, rm, stat } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import path from 'node:path'
import { parseArgs } from 'node:util'
import { waitForUrl } from '../local/run'

export type Instruction = { keyword: string; args: string; line: number }

/** The Dockerfile's instructions, continuation lines joined, comments and blank lines dropped. */
export function parseDockerfile(text: string): Instruction[] {
  const instructions: Instruction[] = []
  let pending = ''
  let start = 0
  text.split('\n').forEach((raw, index) => {
    const line = raw.trim()
    if (!pending && (line === '' || line.startsWith('#'))) return
    if (!pending) start = index + 1
    pending += `${pending ? ' ' : ''}${line.replace(/\\$/, '').trim()}`
    if (line.endsWith('\\')) return
    const [, keyword = '', args = ''] = /^(\S+)\s*(.*)$/.exec(pending) ?? []
    instructions.push({ keyword: keyword.toUpperCase(), args, line: start })
    pending = ''
  })
  return instructions
}

/** `NAME=value NAME2="value 2"` (ENV) or `NAME[=default]` (ARG). */
export function parseAssignments(args: string): Array<[string, string | undefined]> {
  return [...args.matchAll(/([A-Za-z_][A-Za-z0-9_]*)(?:=("[^"]*"|\S*))?/g)].map(([, name, value]) => [
    name!,
    value === undefined ? undefined : value.replace(/^"|"$/g, ''),
  ])
}

/** .dockerignore's patterns as a test on a path of the context (top-level names and `*` globs, what ours uses). */
export function dockerIgnored(patterns: string): (relative: string) => boolean {
  const rules = patterns
    .split('\n')
    .map((line) => line.trim())
    .filter((line) => line && !line.startsWith('#'))
    .map((pattern) => new RegExp(`^${pattern.replace(/[.+^${}()|[\]\\]/g, '\\$&').replace(/\*/g, '[^/]*')}(/|$)`))
  return (relative) => rules.some((rule) => rule.test(relative))
}

/** Names of settings the site (lib/env/index.ts), Next or npm read. */
const SITE_SETTING =
  /^(NEXT_|SANITY_|SUPABASE_|SMTP_|EMAIL_|OUTBOX_|REDIS_|CONTENT_|EMBEDDED_|WAITLIST_|SLACK_|SAMPLE_|INVITATION_|PRODUCT_|CRON_|PORT$|HOSTNAME$|NODE_ENV$|npm_)/i

type Stage = { name: string; root: string; workdir: string; env: Record<string, string> }

function run(command: string, cwd: string, env: Record<string, string>): Promise<void> {
  return new Promise((resolve, reject) => {
    const child = spawn('bash', ['-euo', 'pipefail', '-c', command], { cwd, env: env as NodeJS.ProcessEnv, stdio: 'inherit' })
    child.on('exit', (code: number | null) => (code === 0 ? resolve() : reject(new Error(`RUN ${command} failed (exit ${code})`))))
  })
}

async function copyInto(source: string, destination: string, filter?: (source: string) => boolean) {
  const isDirectory = (await stat(source)).isDirectory()
  await mkdir(isDirectory ? destination : path.dirname(destination), { recursive: true })
  await cp(source, destination, { recursive: true, ...(filter ? { filter } : {}) })
}

async function main() {
  const { values } = parseArgs({
    options: {
      'build-arg': { type: 'string', multiple: true, default: [] },
      env: { type: 'string', multiple: true, default: [] },
      port: { type: 'string', default: '3499' },
      keep: { type: 'boolean', default: false },
    },
  })
  const context = process.cwd()
  const buildArgs = Object.fromEntries(values['build-arg'].map((pair) => pair.split(/=(.*)/s).slice(0, 2) as [string, string]))
  const runEnv = Object.fromEntries(values.env.map((pair) => pair.split(/=(.*)/s).slice(0, 2) as [string, string]))
  const ignored = dockerIgnored(await readFile(path.join(context, '.dockerignore'), 'utf8').catch(() => ''))
  const instructions = parseDockerfile(await readFile(path.join(context, 'Dockerfile'), 'utf8'))
  const scratch = await mkdtemp(path.join(tmpdir(), 'dockerfile-steps-'))
  const stages: Stage[] = []
  // The machine's own environment (its network and certificates, which npm needs here), less
  // everything the site or npm would read as configuration: a stage sees only its ARG and ENV.
  const machine = Object.fromEntries(Object.entries(process.env).filter(([name]) => !SITE_SETTING.test(name))) as Record<string, string>
  const base = { ...machine, PATH: `${path.join(context, 'node_modules', '.bin')}:${process.env.PATH}` }
  let stage: Stage | undefined
  const where = (target: string, current: Stage) => path.join(current.root, path.isAbsolute(target) ? target : path.join(current.workdir, target))
  const started = Date.now()
  try {
    for (const { keyword, args, line } of instructions) {
      console.log(`\n[Dockerfile:${line}] ${keyword} ${args}`)
      if (keyword === 'FROM') {
        const name = /\bAS\s+(\S+)/i.exec(args)?.[1] ?? `stage${stages.length}`
        stage = { name, root: path.join(scratch, name), workdir: '/', env: { ...base } }
        await mkdir(stage.root, { recursive: true })
        stages.push(stage)
        continue
      }
      if (!stage) throw new Error(`Dockerfile:${line}: ${keyword} before FROM`)
      if (keyword === 'WORKDIR') {
        stage.workdir = path.resolve(stage.workdir, args)
        await mkdir(where('.', stage), { recursive: true })
      } else if (keyword === 'ARG') {
        for (const [name, fallback] of parseAssignments(args)) {
          const value = buildArgs[name] ?? fallback
          if (value !== undefined) stage.env[name] = value
        }
      } else if (keyword === 'ENV') {
        for (const [name, value] of parseAssignments(args)) stage.env[name] = value ?? ''
      } else if (keyword === 'COPY') {
        const from = /--from=(\S+)/.exec(args)?.[1]
        const parts = args.replace(/--\S+/g, '').trim().split(/\s+/)
        const destination = parts.pop()!
        const origin = from ? stages.find((candidate) => candidate.name === from) : undefined
        if (from && !origin) throw new Error(`Dockerfile:${line}: no stage ${from}`)
        for (const source of parts) {
          const sourcePath = origin ? path.join(origin.root, source) : path.join(context, source)
          const filter = origin ? undefined : (file: string) => !ignored(path.relative(context, file))
          const multiple = parts.length > 1 || destination.endsWith('/')
          const isDirectory = (await stat(sourcePath)).isDirectory()
          const target = multiple && !isDirectory ? path.join(where(destination, stage), path.basename(source)) : where(destination, stage)
          await copyInto(sourcePath, target, filter)
        }
      } else if (keyword === 'RUN') {
        await run(args, where('.', stage), stage.env)
      } else if (keyword === 'CMD') {
        const [command, ...commandArgs] = JSON.parse(args) as string[]
        const env: Record<string, string> = { ...stage.env, ...runEnv, PORT: values.port }
        console.log(`[steps] build done in ${Math.round((Date.now() - started) / 1000)} s; starting ${command} ${commandArgs.join(' ')} on port ${values.port}`)
        const server = spawn(command!, commandArgs, { cwd: where('.', stage), env: env as NodeJS.ProcessEnv, stdio: 'inherit' })
        try {
          await waitForUrl(`http://127.0.0.1:${values.port}/`)
          const home = await fetch(`http://127.0.0.1:${values.port}/`)
          if (home.status !== 200) throw new Error(`the image's server answered / with ${home.status}`)
          console.log(`[steps] ✔ the image's server answers / with 200`)
        } finally {
          server.kill('SIGTERM')
        }
      } else {
        console.log(`[steps] (${keyword} has no effect outside a container)`)
      }
    }
  } finally {
    if (values.keep) console.log(`[steps] kept ${scratch}`)
    else await rm(scratch, { recursive: true, force: true })
  }
}

if (import.meta.url === `file://${process.argv[1]}`) {
  await main().catch((error: unknown) => {
    console.error(`[steps] ✖ ${error instanceof Error ? error.message : String(error)}`)
    process.exit(1)
  })
}
