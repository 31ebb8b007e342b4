import QRCode from 'qrcode'

/**
 * The QR code of a referral link, as SVG text, drawn on the server (app/og/[lang]/qr/[code]/route.ts)
 * so no QR library ships to a browser: the own page only shows it as an image. `qrcode` draws the
 * same SVG for the same link, so the route's answer can be cached for good. Error correction M
 * (15 %): a phone still reads it from a screen with a glare or a printout with a smudge.
 */
export function referralQrSvg(link: string): Promise<string> {
  return QRCode.toString(link, { type: 'svg', errorCorrectionLevel: 'M', margin: 2, color: { dark: '#0f172a', light: '#ffffff' } })
}
