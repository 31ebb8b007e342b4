import { mkdtemp, mkdir, writeFile } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import path from 'node:path'
import { afterEach, describe, expect, it, vi } from 'vitest'
import { isDraftSession, loadPreviewModeId } from '@/lib/http/preview-mode'

// The proxy tells a draft session from a forged cookie by the build's preview mode id, which
// `next start` does not give it: instrumentation.ts reads it from the build's manifest.

const cookies = (value?: string) => ({ get: (name: string) => (name === '__prerender_bypass' && value !== undefined ? { value } : undefined) })

afterEach(() => {
  vi.unstubAllEnvs()
  vi.restoreAllMocks()
})

async function build(manifest: unknown): Promise<string> {
  const dir = await mkdtemp(path.join(tmpdir(), 'preview-mode-'))
  await mkdir(path.join(dir, 'dist'))
  await writeFile(path.join(dir, 'dist', 'prerender-manifest.json'), JSON.stringify(manifest))
  return path.join(path.relative(process.cwd(), dir), 'dist')
}

describe('the preview mode id', () => {
  it('is read from the build when Next did not give it, and then only that cookie is a draft session', async () => {
    vi.stubEnv('__NEXT_PREVIEW_MODE_ID', '')
    expect(isDraftSession(cookies(''))).toBe(false)
    loadPreviewModeId(await build({ preview: { previewModeId: 'abc123' } }))
    expect(process.env.__NEXT_PREVIEW_MODE_ID).toBe('abc123')
    expect(isDraftSession(cookies('abc123'))).toBe(true)
    for (const forged of [undefined, '', 'abc12', 'abc1234', 'ABC123', ' abc123']) expect(isDraftSession(cookies(forged)), String(forged)).toBe(false)
  })

  it('keeps the one a platform gave', async () => {
    vi.stubEnv('__NEXT_PREVIEW_MODE_ID', 'from-platform')
    loadPreviewModeId(await build({ preview: { previewModeId: 'abc123' } }))
    expect(process.env.__NEXT_PREVIEW_MODE_ID).toBe('from-platform')
  })

  it('without a readable manifest, says so and leaves no draft session possible', async () => {
    vi.stubEnv('__NEXT_PREVIEW_MODE_ID', '')
    const logged = vi.spyOn(console, 'error').mockImplementation(() => {})
    loadPreviewModeId('no-such-build-dir')
    expect(logged).toHaveBeenCalledWith(expect.stringMatching(/preview mode id/))
    loadPreviewModeId(await build({ preview: {} }))
    expect(isDraftSession(cookies(''))).toBe(false)
    expect(isDraftSession(cookies('undefined'))).toBe(false)
  })
})
