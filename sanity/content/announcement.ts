import type { Announcement, SiteLink } from './types'

/** FNV-1a over the text and the link's destination: short, stable, and it says nothing about the visitor. */
export function announcementId(text: string, href: string | null): string {
  let hash = 0x811c9dc5
  for (const char of `${text}\u0000${href ?? ''}`) {
    hash ^= char.codePointAt(0)!
    hash = Math.imul(hash, 0x01000193) >>> 0
  }
  return hash.toString(36)
}

/** Null when the bar is off or has no words. */
export function toAnnouncement(
  raw: { enabled: boolean | null; text: string | null; dismissible: boolean | null } | null,
  link: SiteLink | null,
  clean: (value: string) => string = (value) => value,
): Announcement | null {
  if (!raw?.enabled || !raw.text?.trim()) return null
  const href = link && 'href' in link ? link.href : null
  return { id: announcementId(clean(raw.text), href), text: raw.text, link, dismissible: raw.dismissible !== false }
}
