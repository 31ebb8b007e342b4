/**
 * `npm run sanity:webhook` (tools/content/sanity-webhook.ts) against a stand-in for Sanity's Webhooks
 * API (tools/sanity-standin/hooks-standin.ts): the first run creates the publish webhook with the
 * schema's filter, the site's route, the projection and the secret; a second run after the schema
 * gained a type (a hook left with one type fewer) updates that same webhook rather than adding
 * another, and never touches another site's (a staging site in the same project); a token the API refuses fails the command, saying what to use.
 */
import { execFile } from 'node:child_process'
import { promisify } from 'node:util'
import { afterAll, beforeAll, expect, it } from 'vitest'
import { publishWebhookFilter, publishedDocumentTypes } from '@/sanity/webhook-filter'
import { publishWebhook } from '@/tools/content/publish-webhook'
import { startHooksStandIn, type HooksStandIn } from '@/tools/sanity-standin/hooks-standin'

const run = promisify(execFile)
const PROJECT = 'standin'
const TOKEN = 'sk-manage-webhooks'
let api: HooksStandIn

beforeAll(async () => {
  api = await startHooksStandIn({ projectId: PROJECT, token: TOKEN })
})
afterAll(() => api.close())

const command = (token = TOKEN) =>
  run('node_modules/.bin/tsx', ['tools/content/sanity-webhook.ts', 'https://site.example'], {
    env: {
      ...process.env,
      NEXT_PUBLIC_SANITY_PROJECT_ID: PROJECT,
      NEXT_PUBLIC_SANITY_DATASET: 'production',
      SANITY_REVALIDATE_SECRET: 'the-revalidate-secret',
      SANITY_AUTH_TOKEN: token,
      SANITY_API_HOST: api.url,
    },
  })

it('creates the publish webhook with the generated filter, then updates the same one, leaving another site’s alone', async () => {
  const staging = { ...publishWebhook({ siteUrl: 'https://staging.site.example', dataset: 'production', secret: 'staging' }), id: 'staging' }
  api.hooks.push(structuredClone(staging))
  const created = await command()
  expect(created.stdout).toContain('Webhook created')
  expect(api.hooks).toHaveLength(2)
  expect(api.hooks[1]).toMatchObject({
    type: 'document',
    name: 'Publish to site.example',
    url: 'https://site.example/api/revalidate',
    dataset: 'production',
    httpMethod: 'POST',
    includeDrafts: false,
    secret: 'the-revalidate-secret',
    rule: { on: ['create', 'update', 'delete'], filter: publishWebhookFilter(), projection: '{_type, _id}' },
  })

  // A webhook written before a document type was added: the next run brings it up to date.
  const [dropped, ...kept] = publishedDocumentTypes()
  api.hooks[1]!.rule.filter = publishWebhookFilter(kept)
  const updated = await command()
  expect(updated.stdout).toContain('Webhook updated')
  expect(api.hooks).toHaveLength(2)
  expect(api.hooks[1]!.rule.filter).toContain(JSON.stringify(dropped))
  expect(api.hooks[0]).toEqual(staging)
  expect(api.requests.filter((request) => request.method === 'PATCH')).toHaveLength(1)
}, 120_000)

it('fails with the reason when the API refuses the token', async () => {
  const refused = await command('not-a-manager').catch((error: { code: number; stderr: string }) => error)
  expect(refused).toMatchObject({ code: 1 })
  expect((refused as { stderr: string }).stderr).toMatch(/Could not write the webhook \(the token may not manage/)
}, 120_000)
