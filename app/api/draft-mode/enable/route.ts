import { defineEnableDraftMode } from 'next-sanity/draft-mode'
import type { NextRequest } from 'next/server'
import { draftClient } from '@/lib/content/fetch'

/**
 * Opened by the Studio's Presentation tool with a short-lived secret, which is checked
 * against the Content Lake before draft mode is switched on.
 */
export async function GET(request: NextRequest) {
  const client = draftClient()
  if (!client) {
    return new Response('Draft preview is not available: it needs a Sanity project and SANITY_API_READ_TOKEN (see README).', { status: 404 })
  }
  return defineEnableDraftMode({ client }).GET(request)
}
