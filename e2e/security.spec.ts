import { readdir, readFile } from 'node:fs/promises'
import path from 'node:path'
import type { Page } from '@playwright/test'
import { LOCAL_SERVICE_ROLE_KEY } from '../tools/supabase-local/keys'
import { E2E, e2eEnv } from '../tools/test/e2e-env'
import { LOCAL_REVALIDATE_SECRET } from '../tools/local/local-env'
import { expect, SITE_ROUTES, test, waitLikeAPerson } from './fixtures'
import { waitlistForm } from './waitlist-form'

test.describe('security headers', () => {
  for (const route of [...SITE_ROUTES, '/studio']) {
    test(`${route} sends every security header`, async ({ request }) => {
      const response = await request.get(route)
      const headers = response.headers()
      expect(headers['strict-transport-security']).toMatch(/max-age=\d{8,}; includeSubDomains/)
      expect(headers['x-content-type-options']).toBe('nosniff')
      expect(headers['referrer-policy']).toBe('strict-origin-when-cross-origin')
      expect(headers['permissions-policy']).toContain('camera=()')
      const csp = headers['content-security-policy'] ?? ''
      // One policy per response: two would both be enforced.
      expect(csp).not.toContain(', default-src')
      expect(csp).toContain("default-src 'self'")
      expect(csp).toContain("object-src 'none'")
      expect(csp).toMatch(/frame-ancestors '(self|none)'/)
      if (route === '/studio') {
        expect(csp).toContain('https://*.sanity.io')
      } else {
        expect(csp).toContain(`connect-src 'self' http://127.0.0.1:${E2E.supabasePort}`)
        expect(csp).toContain("img-src 'self' data: blob: https://cdn.sanity.io")
        expect(csp).not.toContain('sanity.io wss')
      }
    })
  }
})

async function collectViolations(page: Page) {
  await page.addInitScript(() => {
    const seen: string[] = []
    ;(window as unknown as { cspViolations: string[] }).cspViolations = seen
    document.addEventListener('securitypolicyviolation', (event) => seen.push(`${event.violatedDirective} ${event.blockedURI}`))
  })
  return () => page.evaluate(() => (window as unknown as { cspViolations: string[] }).cspViolations)
}

test.describe('the Content-Security-Policy blocks nothing the site uses', () => {
  test.use({ consent: 'granted' })

  for (const route of SITE_ROUTES) {
    test(`${route}`, async ({ page }) => {
      const violations = await collectViolations(page)
      await page.route('**/ingest/**', (r) => r.fulfill({ status: 200, body: '{}' }))
      await page.goto(route)
      await page.waitForLoadState('networkidle')
      expect(await violations()).toEqual([])
    })
  }

  test('a sign-up (the database client, the analytics proxy) raises no violation', async ({ page }) => {
    const violations = await collectViolations(page)
    await page.route('**/ingest/**', (r) => r.fulfill({ status: 200, body: '{}' }))
    const form = waitlistForm(page)
    await page.goto('/waitlist')
    await form.name.fill('Policy Checker')
    await form.email.fill(`csp.${Date.now()}@example.org`)
    await waitLikeAPerson(page)
    await form.submit.click()
    await expect(form.confirmed).toBeVisible()
    await page.waitForLoadState('networkidle')
    expect(await violations()).toEqual([])
  })
})

async function filesUnder(dir: string): Promise<string[]> {
  const entries = await readdir(dir, { withFileTypes: true })
  const nested = await Promise.all(entries.map((e) => (e.isDirectory() ? filesUnder(path.join(dir, e.name)) : [path.join(dir, e.name)])))
  return nested.flat()
}

test('the browser bundle and pages carry no server-only secret', async ({ request }) => {
  const env = e2eEnv()
  const secrets = {
    SANITY_API_READ_TOKEN: env.SANITY_API_READ_TOKEN,
    SANITY_REVALIDATE_SECRET: env.SANITY_REVALIDATE_SECRET ?? LOCAL_REVALIDATE_SECRET,
    SUPABASE_SERVICE_ROLE_KEY: LOCAL_SERVICE_ROLE_KEY,
    // The outbox dispatcher's settings: the route's secret and the SMTP server.
    OUTBOX_DISPATCH_SECRET: env.OUTBOX_DISPATCH_SECRET,
    SMTP_URL: env.SMTP_URL,
  }
  expect(env.SUPABASE_SERVICE_ROLE_KEY, 'the dispatcher has the service-role key in this build').toBe(LOCAL_SERVICE_ROLE_KEY)
  for (const [name, value] of Object.entries(secrets)) expect(value, `${name} is set for this build`).toBeTruthy()
  const files = await filesUnder(path.join(E2E.distDir, 'static'))
  expect(files.length).toBeGreaterThan(10)
  const bodies = await Promise.all(files.map((file) => readFile(file, 'utf8')))
  for (const route of [...SITE_ROUTES, '/waitlist/confirm']) bodies.push(await (await request.get(route)).text())
  for (const [name, value] of Object.entries(secrets)) {
    const leaks = bodies.filter((body) => body.includes(value!)).length
    expect(leaks, `${name} found in the browser bundle or a page`).toBe(0)
  }
})
