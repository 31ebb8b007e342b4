/**
 * Presentation without a read token (issue #56): the Studio gets a tool under the same name that
 * says what to set, instead of a Presentation that can only say "Unable to connect"; with the token,
 * the real Presentation. The Studio page decides from the server's settings.
 */
import { readFileSync } from 'node:fs'
import { describe, expect, it } from 'vitest'
import { studioConfig } from '@/sanity.config'
import { PREVIEWS_OFF_TEXT } from '@/sanity/studio/previews-off'

/** Which plugin brings the tool named `presentation` (Sanity's own has no plugin name). */
const presentationFrom = (previews: boolean) => {
  const config = studioConfig({ previews })
  const plugins = Array.isArray(config) ? [] : (config.plugins ?? [])
  return plugins.flatMap((plugin) => {
    const tools = typeof plugin === 'object' && Array.isArray(plugin.tools) ? plugin.tools : []
    return tools.filter((tool) => tool.name === 'presentation').map(() => (typeof plugin === 'object' ? (plugin.name ?? 'sanity/presentation') : '?'))
  })
}

describe('the Studio without draft previews', () => {
  it('has the real Presentation only when the site can show drafts', () => {
    expect(presentationFrom(true)).toEqual(['sanity/presentation'])
    expect(presentationFrom(false)).toEqual(['previews-off'])
  })

  it('tells the editor what to set, by the setting the site reads', () => {
    expect(PREVIEWS_OFF_TEXT.body).toContain('SANITY_API_READ_TOKEN')
    const page = readFileSync('app/(studio)/studio/[[...tool]]/page.tsx', 'utf8')
    expect(page).toMatch(/previews=\{Boolean\(serverEnv\(\)\.sanityReadToken\)\}/)
  })
})
