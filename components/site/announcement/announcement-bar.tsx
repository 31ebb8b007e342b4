import { X } from 'lucide'
import { Container } from '@/components/ui/container'
import { SvgIcon } from '@/components/ui/svg-icon'
import type { Announcement } from '@/sanity/content/types'
import { SiteLink } from '../site-link'

/** The browser storage key of the closed announcement (listed in the cookie policy: strictly necessary, no cookie). */
export const ANNOUNCEMENT_STORAGE_KEY = 'announcement:dismissed'
const DISMISSED_ATTRIBUTE = 'data-announcement-dismissed'

/**
 * Runs as the HTML is parsed, before the bar is drawn: if this visitor closed this announcement,
 * it marks <html> and CSS hides the bar, so it never flashes and nothing shifts on later visits.
 * It also handles the close button, so the bar needs no React JavaScript at all. Inline, like
 * Next's own bootstrap scripts, which the Content-Security-Policy already allows.
 */
export function announcementScript(id: string): string {
  const values = JSON.stringify({ key: ANNOUNCEMENT_STORAGE_KEY, id, attribute: DISMISSED_ATTRIBUTE }).replace(/</g, '\\u003c')
  return `(function(v){var d=document.documentElement;try{if(localStorage.getItem(v.key)===v.id)d.setAttribute(v.attribute,"")}catch(e){}document.addEventListener("click",function(e){var b=e.target instanceof Element&&e.target.closest("[data-announcement-dismiss]");if(!b)return;d.setAttribute(v.attribute,"");try{localStorage.setItem(v.key,v.id)}catch(e){}var m=document.getElementById("main");if(m)m.focus()})})(${values})`
}

/** Drawn on the server above the header; hidden by CSS once the visitor closed this announcement. */
export function AnnouncementBar({ announcement, closeLabel, plannedLabel }: { announcement: Announcement | null; closeLabel: string; plannedLabel: string }) {
  if (!announcement) return null
  return (
    <>
      {announcement.dismissible ? <script dangerouslySetInnerHTML={{ __html: announcementScript(announcement.id) }} /> : null}
      {/* A landmark of its own (named by its words), so no content sits outside one. */}
      <aside
        data-announcement={announcement.id}
        aria-labelledby="announcement-text"
        className="bg-brand-700 text-sm text-white [html[data-announcement-dismissed]_&]:hidden"
      >
        <Container className="flex items-center gap-3 py-2">
          <p id="announcement-text" className="flex-1 text-center">
            {announcement.text}
            {announcement.link ? (
              <>
                {' '}
                <SiteLink
                  link={announcement.link}
                  location="announcement"
                  plannedLabel={plannedLabel}
                  className="font-semibold underline underline-offset-2 hover:text-brand-100"
                />
              </>
            ) : null}
          </p>
          {announcement.dismissible ? (
            <button
              type="button"
              data-announcement-dismiss=""
              aria-label={closeLabel}
              className="-m-1 rounded p-1 text-brand-100 hover:bg-white/10 hover:text-white"
            >
              <SvgIcon icon={X} className="size-4" />
            </button>
          ) : null}
        </Container>
      </aside>
    </>
  )
}
