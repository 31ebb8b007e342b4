import { readFileSync } from 'node:fs'
import path from 'node:path'

/** Next's draft-mode cookie (node_modules/next/dist/server/api-utils). */
export const DRAFT_MODE_COOKIE = '__prerender_bypass'

/**
 * Whether a request carries the draft-mode cookie Next itself would accept: the preview mode id of
 * this build, as `draftMode()` compares it (node_modules/next/dist/server/async-storage/
 * draft-mode-provider.js). Any other value, however it is spelled, is a visitor's cookie.
 */
export function isDraftSession(cookies: { get(name: string): { value: string } | undefined }): boolean {
  const value = cookies.get(DRAFT_MODE_COOKIE)?.value
  const id = process.env.__NEXT_PREVIEW_MODE_ID
  return Boolean(value && id && value === id)
}

/**
 * Gives the proxy the build's preview mode id. Next hands its proxy `__NEXT_PREVIEW_MODE_ID` only
 * where a platform's build pipeline sets it (node_modules/next/dist/server/web/get-edge-preview-props.js);
 * under `next start` it is unset, so this reads it from the build's prerender-manifest.json, where
 * the server reads it too. Run once at start (instrumentation.ts). Without it no request is a draft
 * session to the proxy: previews then show published pages only, and nothing is opened wider.
 */
export function loadPreviewModeId(distDir = process.env.NEXT_DIST_DIR || '.next'): void {
  if (process.env.__NEXT_PREVIEW_MODE_ID) return
  try {
    const manifest = JSON.parse(readFileSync(path.join(/*turbopackIgnore: true*/ process.cwd(), distDir, 'prerender-manifest.json'), 'utf8')) as {
      preview?: { previewModeId?: unknown }
    }
    const id = manifest.preview?.previewModeId
    if (typeof id === 'string' && id) process.env.__NEXT_PREVIEW_MODE_ID = id
  } catch (error) {
    console.error(`[draft] Could not read the build's preview mode id (${(error as Error).message}): draft previews show published pages only.`)
  }
}
