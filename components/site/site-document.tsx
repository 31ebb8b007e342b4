import type { ReactNode } from 'react'
import { DEFAULT_LANGUAGE, languageTag } from '@/lib/i18n/languages'

/**
 * The `<html>` and `<body>` of every page. The site, the Studio and the 404 each have their own
 * root (app/(site)/[lang]/layout.tsx, app/(studio)/layout.tsx, app/global-not-found.tsx): a root
 * not-found.tsx is sent, with its client components, with every page, and drawing the header
 * and footer there doubled their JavaScript on each page.
 */
export function SiteDocument({ children, language = DEFAULT_LANGUAGE }: { children: ReactNode; language?: string }) {
  return (
    // The announcement bar's inline script may mark <html> before React hydrates it (components/site/announcement).
    <html lang={languageTag(language)} suppressHydrationWarning>
      <body className="font-sans">{children}</body>
    </html>
  )
}
