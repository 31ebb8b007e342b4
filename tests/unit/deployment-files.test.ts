/**
 * The deployment's wiring kept in the repository (issue #70) against what it wires: vercel.json's
 * cron calls the dispatcher the way its route takes a scheduler's call (GET, every minute, with
 * Vercel's CRON_SECRET as the bearer the route checks), and the Dockerfile builds the standalone
 * server with every value Next writes in at build as a build argument, copying only what exists.
 * tools/test/dockerfile-steps.ts runs the Dockerfile's steps themselves; here, its reading of them.
 */
import { existsSync, readFileSync } from 'node:fs'
import { describe, expect, it } from 'vitest'
import { dockerIgnored, parseAssignments, parseDockerfile } from '@/tools/test/dockerfile-steps'

describe('vercel.json', () => {
  const vercel = JSON.parse(readFileSync('vercel.json', 'utf8')) as { crons: Array<{ path: string; schedule: string }> }

  it('runs the dispatcher every minute, on a route that takes GET', () => {
    expect(vercel.crons).toEqual([{ path: '/api/outbox/dispatch', schedule: '* * * * *' }])
    expect(readFileSync('app/api/outbox/dispatch/route.ts', 'utf8')).toMatch(/^export const GET = /m)
  })
})

describe('the Dockerfile', () => {
  const instructions = parseDockerfile(readFileSync('Dockerfile', 'utf8'))
  const ignored = dockerIgnored(readFileSync('.dockerignore', 'utf8'))

  it('takes every value Next writes into the build as a build argument', () => {
    const written = new Set(
      ['lib/env/index.ts', 'lib/env/browser.ts'].flatMap((file) =>
        [...readFileSync(file, 'utf8').matchAll(/process\.env\.((?:NEXT_PUBLIC_|PRODUCT_WIDGET_)[A-Z_]+)/g)].map((match) => match[1]!),
      ),
    )
    const args = new Set(instructions.filter((step) => step.keyword === 'ARG').flatMap((step) => parseAssignments(step.args).map(([name]) => name)))
    expect(written.size).toBeGreaterThan(5)
    expect([...written].filter((name) => !args.has(name))).toEqual([])
  })

  it('builds the standalone output and starts its server, copying from the context only what exists and is not ignored', () => {
    const copies = instructions.filter((step) => step.keyword === 'COPY' && !step.args.includes('--from'))
    for (const source of copies.flatMap((step) => step.args.split(/\s+/).slice(0, -1))) {
      expect(existsSync(source), source).toBe(true)
      if (source !== '.') expect(ignored(source), source).toBe(false)
    }
    for (const never of ['node_modules', '.next-e2e', '.env.local', '.git', '.local/cache']) expect(ignored(never), never).toBe(true)
    expect(instructions.some((step) => step.keyword === 'ENV' && step.args.includes('NEXT_OUTPUT=standalone'))).toBe(true)
    expect(readFileSync('next.config.ts', 'utf8')).toContain(`process.env.NEXT_OUTPUT === 'standalone' && { output: 'standalone'`)
    expect(instructions.filter((step) => step.keyword === 'COPY' && step.args.includes('--from=build')).map((step) => step.args.split(/\s+/)[1])).toEqual([
      '/src/.next/standalone',
      '/src/.next/static',
    ])
    expect(instructions.at(-1)).toMatchObject({ keyword: 'CMD', args: '["node", "server.js"]' })
  })
})
