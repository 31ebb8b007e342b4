import { CONSENT_BANNER_ATTRIBUTE, CONSENT_CHOSEN_ATTRIBUTE, consentBootScript } from '@/components/analytics/consent'

// A banner the footer's cookie settings reopened shows whatever was chosen before.
const HIDE_CHOSEN = `html[${CONSENT_CHOSEN_ATTRIBUTE}] [${CONSENT_BANNER_ATTRIBUTE}]:not([${CONSENT_BANNER_ATTRIBUTE}=reopened]){display:none}`
// Without JavaScript nothing is tracked and the banner's buttons cannot work: no banner.
const HIDE_WITHOUT_SCRIPT = `[${CONSENT_BANNER_ATTRIBUTE}]{display:none}`

/**
 * Placed before the server-rendered consent banner: hides it before the first paint for a visitor
 * who has chosen (or whose browser refuses tracking), with the same reading the banner makes
 * after hydration (components/analytics/consent.ts).
 */
export function ConsentBoot() {
  return (
    <>
      <style>{HIDE_CHOSEN}</style>
      <script dangerouslySetInnerHTML={{ __html: consentBootScript() }} />
      <noscript>
        <style>{HIDE_WITHOUT_SCRIPT}</style>
      </noscript>
    </>
  )
}
