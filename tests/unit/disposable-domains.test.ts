/**
 * The disposable-mail domains the referral holds read come from the pinned npm package, through
 * `npm run waitlist:disposable-domains` (tools/db/disposable-domains.ts): the schema file must be
 * exactly what the installed package makes (a version bump without running the command fails
 * here), and an update's migration carries only the difference.
 */
import { readFile } from 'node:fs/promises'
import { describe, expect, it } from 'vitest'
import { DOMAINS_FILE, domainsInSchema, nextMigrationName, packageDomains, renderDomainsMigration, renderDomainsSchema } from '@/tools/db/disposable-domains'
import { listMigrations } from '@/tools/supabase-local/migrate'

describe('the disposable-mail domains', () => {
  it('in supabase/schemas/ are the installed package’s, as the command writes them', async () => {
    const { version, domains } = packageDomains()
    expect(domains.length).toBeGreaterThan(1000)
    expect(domains).toContain('mailinator.com')
    expect(await readFile(DOMAINS_FILE, 'utf8'), 'run `npm run waitlist:disposable-domains` and commit what it writes').toBe(
      renderDomainsSchema(version, domains),
    )
  })

  it('never list a domain the site or its tests use for real people', () => {
    const { domains } = packageDomains()
    for (const domain of ['gmail.com', 'example.com', 'example.org', 'outlook.com', 'proton.me']) expect(domains).not.toContain(domain)
  })

  it('round-trip through the schema file', () => {
    expect(domainsInSchema(renderDomainsSchema('1.0.0', ['a.example', 'b-c.example.org']))).toEqual(['a.example', 'b-c.example.org'])
    expect(domainsInSchema('')).toEqual([])
  })

  it('change through a migration of only the difference, and none when nothing changed', () => {
    expect(renderDomainsMigration('2.0.0', ['a.example', 'b.example'], ['a.example', 'b.example'])).toBeNull()
    const migration = renderDomainsMigration('2.0.0', ['a.example', 'gone.example'], ['a.example', 'new.example'])!
    expect(migration).toContain("delete from private.waitlist_disposable_domains where domain in (\n  'gone.example'\n);")
    expect(migration).toContain("insert into private.waitlist_disposable_domains (domain) values\n  ('new.example');")
    expect(migration).not.toContain("'a.example'")
  })

  it('name the next migration after every existing one', async () => {
    const latest = (await listMigrations()).at(-1)!.version
    const name = await nextMigrationName(new Date('2000-01-01T00:00:00Z'))
    expect(name).toMatch(/^\d{14}_waitlist_disposable_domains\.sql$/)
    expect(name.slice(0, 14) > latest).toBe(true)
    expect(await nextMigrationName(new Date('2999-01-02T03:04:05Z'))).toBe('29990102030405_waitlist_disposable_domains.sql')
  })
})
