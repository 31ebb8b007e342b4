'use client'

import { useState } from 'react'
import type { WaitlistPlacePanel } from '@/sanity/content/types'
import { track } from '@/components/analytics/client'
import { referralQrPath, shareLinks } from '@/components/waitlist/share'
import { Button, ButtonLink } from '@/components/ui/button'

type Props = {
  copy: WaitlistPlacePanel
  /** The referral link (`referralLink` in link.ts), on this page's own origin. */
  link: string
  code: string
  language: string
}

/**
 * The share kit on the own page (issue #69): copy the link, send it by e-mail, WhatsApp, LinkedIn
 * or X with the marketers' words, the phone's own share sheet where the browser has one, and a QR
 * code drawn by the server (an <img> of app/og/[lang]/qr/[code]/route.ts). A leaf of the place
 * panel, so its few lines of script load only where the panel does: on the own page.
 */
export function ShareKit({ copy, link, code, language }: Props) {
  const [status, setStatus] = useState('')
  // The place panel renders only in the browser (it reads the token), so this is known at the first render.
  const canShare = typeof navigator.share === 'function'

  const links = shareLinks(link, { text: copy.shareText, subject: copy.shareSubject }, window.location.origin)

  async function copyLink() {
    try {
      await navigator.clipboard.writeText(link)
      setStatus(copy.copiedLabel)
      track('referral_link_copied', { method: 'copy' })
    } catch {
      // Clipboard refused (permissions, an old browser): the link is selectable in its field.
      document.getElementById('referral-link')?.focus()
    }
  }

  async function shareLink() {
    try {
      await navigator.share({ text: copy.shareText, url: link })
      track('referral_link_copied', { method: 'share' })
    } catch {
      // Cancelled by the person, or refused: nothing to say.
    }
  }

  // Opened in a new tab so the own page (and its token, kept in memory only) stays open behind it;
  // noopener so the network's page cannot reach back into ours.
  const external = { target: '_blank', rel: 'noopener noreferrer' } as const
  return (
    <div data-testid="share-kit">
      <div className="mt-3 flex flex-wrap gap-2">
        <Button onClick={copyLink} size="sm">
          {copy.copyLabel}
        </Button>
        {canShare ? (
          <Button onClick={shareLink} variant="secondary" size="sm">
            {copy.shareLabel}
          </Button>
        ) : null}
        <ButtonLink href={links.email} variant="secondary" size="sm" data-share="email">
          {copy.emailShareLabel}
        </ButtonLink>
        <ButtonLink href={links.whatsapp} variant="secondary" size="sm" data-share="whatsapp" {...external}>
          {copy.whatsappLabel}
        </ButtonLink>
        <ButtonLink href={links.linkedin} variant="secondary" size="sm" data-share="linkedin" {...external}>
          {copy.linkedinLabel}
        </ButtonLink>
        <ButtonLink href={links.x} variant="secondary" size="sm" data-share="x" {...external}>
          {copy.xLabel}
        </ButtonLink>
      </div>
      <p role="status" className="mt-2 text-sm text-slate-700">
        {status}
      </p>
      {/* Fixed size, so the panel does not reflow when the picture arrives. */}
      {/* eslint-disable-next-line @next/next/no-img-element -- an SVG from our own route: next/image would only add a loader */}
      <img src={referralQrPath(code, language)} alt={copy.qrLabel} width={160} height={160} className="mt-3 h-40 w-40 rounded-lg border border-slate-200" />
    </div>
  )
}
