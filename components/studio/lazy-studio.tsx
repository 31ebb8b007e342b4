'use client'

import dynamic from 'next/dynamic'

/**
 * The Studio's code, and with it Sanity's stylesheet (its reset would undo the setup page's
 * spacing), loads only when a Studio is drawn: a static import would put that stylesheet on the
 * setup page too (app/(studio)/studio/[[...tool]]/page.tsx, e2e/studio-setup.spec.ts).
 */
export const LazyStudio = dynamic(() => import('./studio').then(({ Studio }) => Studio), { ssr: false })
