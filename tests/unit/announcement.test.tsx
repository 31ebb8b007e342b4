import { describe, expect, it } from 'vitest'
import { renderToStaticMarkup } from 'react-dom/server'
import { AnnouncementBar, announcementScript, ANNOUNCEMENT_STORAGE_KEY } from '@/components/site/announcement/announcement-bar'
import { announcementId, toAnnouncement } from '@/sanity/content/announcement'

const link = { key: 'l', label: 'Join the waitlist', kind: 'internal' as const, href: '/waitlist' }

describe('the announcement bar', () => {
  it('is off when switched off or empty', () => {
    expect(toAnnouncement(null, null)).toBeNull()
    expect(toAnnouncement({ enabled: false, text: 'News', dismissible: true }, null)).toBeNull()
    expect(toAnnouncement({ enabled: true, text: '  ', dismissible: true }, null)).toBeNull()
  })

  it('gets a new id when its words or its link change, so visitors who closed the old one see the new one', () => {
    const a = toAnnouncement({ enabled: true, text: 'News', dismissible: null }, link)!
    expect(a).toMatchObject({ text: 'News', link, dismissible: true })
    expect(a.id).toBe(announcementId('News', '/waitlist'))
    expect(announcementId('News!', '/waitlist')).not.toBe(a.id)
    expect(announcementId('News', '/about')).not.toBe(a.id)
    expect(announcementId('News', '/waitlist')).toMatch(/^[0-9a-z]+$/)
    // Stega markers of a draft preview do not change the id.
    expect(toAnnouncement({ enabled: true, text: 'News\u200b', dismissible: true }, link, (text) => text.replace('\u200b', ''))!.id).toBe(a.id)
  })

  it('is drawn on the server; the script and close button only when visitors may close it', () => {
    const closable = renderToStaticMarkup(
      <AnnouncementBar announcement={toAnnouncement({ enabled: true, text: 'News', dismissible: true }, link)} closeLabel="Close" plannedLabel="Soon" />,
    )
    expect(closable).toContain('News')
    expect(closable).toContain('href="/waitlist"')
    expect(closable).toContain('aria-label="Close"')
    expect(closable).toContain(`<script>${announcementScript(announcementId('News', '/waitlist'))}</script>`)
    const fixed = renderToStaticMarkup(
      <AnnouncementBar announcement={toAnnouncement({ enabled: true, text: 'News', dismissible: false }, null)} closeLabel="Close" plannedLabel="Soon" />,
    )
    expect(fixed).not.toContain('<script')
    expect(fixed).not.toContain('<button')
  })

  it('its inline script cannot be broken out of by content', () => {
    const script = announcementScript('</script><script>alert(1)</script>')
    expect(script).not.toContain('</script')
    expect(script).toContain(JSON.stringify(ANNOUNCEMENT_STORAGE_KEY))
  })
})
