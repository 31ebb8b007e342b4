import { defineEnableDraftMode } from 'next-sanity/draft-mode'
import type { NextRequest } from 'next/server'
import { draftClient } from '@/sanity/content/fetch'
import { sameSitePath } from '@/lib/content/paths'

const PATHNAME_PARAM = 'sanity-preview-pathname'

/**
 * Opened by the Studio's Presentation tool with a short-lived secret, which is checked
 * against the Content Lake before draft mode is switched on.
 */
export async function GET(request: NextRequest) {
  const client = draftClient()
  if (!client) {
    return new Response(
      'Draft preview is not available: it needs a Sanity project and SANITY_API_READ_TOKEN (see docs/editors.md, "Publishing, previews and search engines").',
      { status: 404 },
    )
  }
  // The page to open after switching draft mode on is the Studio's choice but not signed with the
  // secret: next-sanity resolves it against our origin and redirects there, and `/.//evil.com`
  // resolves to `//evil.com`, another site. Only a path of ours goes through.
  const url = new URL(request.url)
  if (url.searchParams.has(PATHNAME_PARAM)) url.searchParams.set(PATHNAME_PARAM, sameSitePath(url.searchParams.get(PATHNAME_PARAM)))
  return defineEnableDraftMode({ client }).GET(new Request(url, request) as NextRequest)
}
