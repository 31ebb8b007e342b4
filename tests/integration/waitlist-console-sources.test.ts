/**
 * The console's source tables when visitors have made up 10,000 campaigns and 10,000 referring
 * hosts (anyone can sign up 50 times an hour per network, each with new tags): the 20 largest,
 * one "others" row with the rest's count and how many distinct, and a page under 100 kB. On real
 * PostgreSQL, through the local double's REST code (as the scale bench reads it): 10,000 sign-ups
 * through the triggers take PGlite most of a minute, PostgreSQL a second or two.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { startConsole, type RunningConsole } from '@/tools/owner/console/server'
import { poolDatabase } from '@/tools/supabase-local/real-postgres'
import { startRestOver } from '@/tools/supabase-local/server'
import { tableRows } from '../helpers/console-page'
import { startRealPostgres, type RealPostgres } from '../helpers/real-postgres'

const SOURCES = 10_000

let postgres: RealPostgres | undefined
let rest: Awaited<ReturnType<typeof startRestOver>> | undefined
let consoleServer: RunningConsole
let page: string

beforeAll(async () => {
  const started = await startRealPostgres({ maxConnections: 40 })
  if (!started.ok) throw new Error(started.reason)
  postgres = started.postgres
  rest = await startRestOver(poolDatabase(postgres.api))
  // Each sign-up its own campaign and its own referring host, 100 characters of tag (the most the
  // database keeps); sign-up i confirmed when i is even. Three more sign-ups make one campaign the largest.
  await postgres.owner.query(`insert into public.waitlist (name, email, project, status, confirmed_at, utm_source, utm_medium, utm_campaign, referrer_host)
    select 'Person ' || i, 'p' || i || '@sources.test', '', case when i % 2 = 0 then 'confirmed' else 'pending' end, case when i % 2 = 0 then now() end,
           'src', 'cpc', lpad(i::text, 100, 'x'), 'h' || i || '.example'
      from generate_series(1, ${SOURCES}) as i`)
  await postgres.owner.query(`insert into public.waitlist (name, email, project, utm_source, utm_medium, utm_campaign)
    select 'Fan ' || i, 'fan' || i || '@sources.test', '', 'src', 'cpc', 'the-big-one' from generate_series(1, 3) as i`)
  consoleServer = await startConsole({ port: 0, env: { NEXT_PUBLIC_SUPABASE_URL: rest.url, SUPABASE_SERVICE_ROLE_KEY: rest.serviceRoleKey } })
  const response = await fetch(`http://127.0.0.1:${consoleServer.port}/?token=${consoleServer.token}`)
  expect(response.status).toBe(200)
  page = await response.text()
}, 180_000)

afterAll(async () => {
  await consoleServer?.close()
  await rest?.close()
  await postgres?.close()
})

describe(`the console with ${SOURCES} made-up sources`, () => {
  it('stays under 100 kB', () => {
    expect(Buffer.byteLength(page)).toBeLessThan(100_000)
  })

  it('shows the 20 largest campaigns, then one row for the other 9,981 with their sign-ups and confirmations', () => {
    const rows = tableRows(page, 'Campaign tags')
    expect(rows).toHaveLength(21)
    expect(rows[0]).toEqual(['campaign src / cpc / the-big-one', '3', '0'])
    const shown = rows.slice(0, 20)
    const others = rows[20]!
    expect(others).toEqual([
      `Others: ${SOURCES + 1 - 20} more campaigns`,
      String(SOURCES + 3 - shown.reduce((sum, row) => sum + Number(row[1]), 0)),
      String(SOURCES / 2 - shown.reduce((sum, row) => sum + Number(row[2]), 0)),
    ])
  })

  it('shows the 20 largest referring sites, one row for the rest, and the sign-ups with none', () => {
    const rows = tableRows(page, 'Referring sites')
    expect(rows).toHaveLength(22)
    expect(rows[20]).toEqual([
      `Others: ${SOURCES - 20} more sites`,
      String(SOURCES - 20),
      String(SOURCES / 2 - rows.slice(0, 20).reduce((sum, row) => sum + Number(row[2]), 0)),
    ])
    expect(rows[21]).toEqual(['None recorded (typed in, or no referrer sent)', '3', '0'])
  })
})
