/**
 * Sanity's publish webhook, as code: the one definition `npm run sanity:webhook` creates or
 * updates through Sanity's Webhooks API (tools/content/sanity-webhook.ts) and `npm run
 * launch:check` reads back. What the founders' guide once had them click together
 * (docs/founders.md, "The publish webhook"): the site's /api/revalidate, on create, update and
 * delete, the filter of every published document type from the schema (sanity/webhook-filter.ts),
 * the projection the route reads, drafts off, and the route's secret.
 */
import { createClient, type SanityClient } from '@sanity/client'
import { publishWebhookFilter } from '../../sanity/webhook-filter'

/** The Webhooks API's version (Sanity's reference, "Webhooks API"): the hooks' shape below is its. */
export const HOOKS_API_VERSION = '2021-10-04'
export const SANITY_API = 'https://api.sanity.io'
export const PUBLISH_WEBHOOK_PATH = '/api/revalidate'

/** A document webhook as the Webhooks API stores and lists it (the fields this site sets). */
export interface DocumentHook {
  id?: string
  type: 'document'
  name: string
  url: string
  dataset: string
  description?: string | null
  httpMethod: string
  apiVersion: string
  includeDrafts: boolean
  headers: Record<string, string>
  rule: { on: Array<'create' | 'update' | 'delete'>; filter: string | null; projection: string | null }
  secret?: string | null
  isDisabled?: boolean
  isDisabledByUser?: boolean
}

/** The webhook this site needs, for the site at `siteUrl`. */
export function publishWebhook({ siteUrl, dataset, secret }: { siteUrl: string; dataset: string; secret: string }): DocumentHook {
  return {
    type: 'document',
    name: `Publish to ${new URL(siteUrl).host}`,
    description: 'Revalidates the site on every publish (npm run sanity:webhook writes it; edits here are overwritten).',
    url: new URL(PUBLISH_WEBHOOK_PATH, siteUrl).toString(),
    dataset,
    httpMethod: 'POST',
    // The GROQ version the filter and projection are read with; the route reads only {_type, _id}.
    apiVersion: 'v2025-02-19',
    includeDrafts: false,
    headers: {},
    rule: { on: ['create', 'update', 'delete'], filter: publishWebhookFilter(), projection: '{_type, _id}' },
    secret,
  }
}

/** The Webhooks API with a token that may manage the project's webhooks; `apiHost` is a stand-in's in tests. */
export function hooksClient({ projectId, token, apiHost = SANITY_API }: { projectId: string; token: string; apiHost?: string }): SanityClient {
  return createClient({ projectId, apiVersion: HOOKS_API_VERSION, token, apiHost, useProjectHostname: false, useCdn: false })
}

export const listHooks = (client: SanityClient, projectId: string) => client.request<DocumentHook[]>({ uri: `/hooks/projects/${projectId}` })

/**
 * The project's publish webhook for this site: the one calling its route, whoever made it. By
 * address only: a staging site sharing the project has a webhook of its own, left as it is.
 */
export async function findPublishWebhook(client: SanityClient, projectId: string, url: string): Promise<DocumentHook | undefined> {
  return (await listHooks(client, projectId)).find((hook) => hook.type === 'document' && hook.url === url)
}

export type UpsertResult = { action: 'created' | 'updated'; hook: DocumentHook }

/** Creates the webhook, or brings the existing one to `wanted` (its filter, URL and secret included). */
export async function upsertPublishWebhook(client: SanityClient, projectId: string, wanted: DocumentHook): Promise<UpsertResult> {
  const existing = await findPublishWebhook(client, projectId, wanted.url)
  if (!existing?.id)
    return { action: 'created', hook: await client.request<DocumentHook>({ uri: `/hooks/projects/${projectId}`, method: 'POST', body: wanted }) }
  const hook = await client.request<DocumentHook>({
    uri: `/hooks/projects/${projectId}/${existing.id}`,
    method: 'PATCH',
    body: { ...wanted, isDisabledByUser: false },
  })
  return { action: 'updated', hook }
}
