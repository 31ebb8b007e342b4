/**
 * `npm run sanity:webhook -- https://<your site> [--dry-run]`: creates Sanity's publish webhook for
 * the site, or brings the existing one up to date (tools/content/publish-webhook.ts), so its filter
 * names every document type the schema has today. Run it again after adding a document type.
 *
 * Reads, from the environment or .env.local: NEXT_PUBLIC_SANITY_PROJECT_ID, NEXT_PUBLIC_SANITY_DATASET
 * (default production), SANITY_REVALIDATE_SECRET (the site's, which the webhook signs with) and
 * SANITY_AUTH_TOKEN (a token that may manage the project's webhooks: `npx sanity debug --secrets`
 * prints yours after `npx sanity login`). SANITY_API_HOST points it at a stand-in (the tests).
 * `--dry-run` prints the webhook it would send, with the secret hidden, and sends nothing.
 */
import nextEnv from '@next/env'
import { parseArgs } from 'node:util'
import { hooksClient, publishWebhook, upsertPublishWebhook, type DocumentHook } from './publish-webhook'

nextEnv.loadEnvConfig(process.cwd(), false)

const { positionals, values } = parseArgs({ allowPositionals: true, options: { 'dry-run': { type: 'boolean', default: false } } })
const siteUrl = positionals[0] ?? process.env.NEXT_PUBLIC_SITE_URL
if (!siteUrl || !/^https?:\/\//.test(siteUrl) || positionals.length > 1) {
  console.error('Usage: npm run sanity:webhook -- https://<your site> [--dry-run]')
  process.exit(2)
}

const projectId = process.env.NEXT_PUBLIC_SANITY_PROJECT_ID?.trim()
const secret = process.env.SANITY_REVALIDATE_SECRET?.trim()
const token = process.env.SANITY_AUTH_TOKEN?.trim()
const missing = [
  !projectId && 'NEXT_PUBLIC_SANITY_PROJECT_ID (the Sanity project)',
  !secret && 'SANITY_REVALIDATE_SECRET (the same value as on the site)',
  !token && !values['dry-run'] && 'SANITY_AUTH_TOKEN (`npx sanity debug --secrets` prints yours)',
].filter(Boolean)
if (missing.length > 0) {
  console.error(`Set these first (in the environment or .env.local):\n  - ${missing.join('\n  - ')}`)
  process.exit(2)
}

const wanted = publishWebhook({ siteUrl, dataset: process.env.NEXT_PUBLIC_SANITY_DATASET?.trim() || 'production', secret: secret! })
const shown = (hook: DocumentHook) =>
  `${hook.name} → ${hook.httpMethod} ${hook.url} (dataset ${hook.dataset})\n  on: ${hook.rule.on.join(', ')}\n  filter: ${hook.rule.filter}\n  projection: ${hook.rule.projection}`

if (values['dry-run']) {
  console.log(`Would send (secret hidden):\n${shown(wanted)}`)
  process.exit(0)
}

try {
  const client = hooksClient({ projectId: projectId!, token: token!, ...(process.env.SANITY_API_HOST ? { apiHost: process.env.SANITY_API_HOST } : {}) })
  const { action, hook } = await upsertPublishWebhook(client, projectId!, wanted)
  console.log(`Webhook ${action}: ${shown(hook)}`)
} catch (error) {
  const status = (error as { statusCode?: number }).statusCode
  const hint = status === 401 || status === 403 ? ' (the token may not manage this project’s webhooks: use an administrator’s)' : ''
  console.error(`Could not write the webhook${hint}: ${error instanceof Error ? error.message : String(error)}`)
  process.exit(1)
}
