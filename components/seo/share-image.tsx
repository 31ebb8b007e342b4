import satori from 'satori'
import sharp from 'sharp'
import { getSiteSettings } from '@/sanity/content'
import { fontsFor, loadAdditionalAsset, SHARE_IMAGE_FONT_FAMILY, type TextRun } from './share-image-assets'

const WIDTH = 1200
const HEIGHT = 630

const firstGrapheme = (text: string) => new Intl.Segmenter(undefined, { granularity: 'grapheme' }).segment(text)[Symbol.iterator]().next().value?.segment ?? ''

/**
 * The share image of a page that has none in Sanity: the site name over the page's headline.
 * Drawn by satori with fonts and emoji from node_modules only (share-image-assets.ts), not
 * next/og's ImageResponse: that one fetches emoji and missing glyphs from public CDNs, which
 * failed offline builds and told a third party every title we draw.
 */
export async function drawShareImage(headline: string, language: string): Promise<Response> {
  const settings = await getSiteSettings(language)
  // Composed form, so that a letter typed with a combining accent uses the font's accented letter.
  const siteName = settings.siteName.normalize('NFC')
  const title = headline.normalize('NFC')
  const description = settings.seo.description.normalize('NFC')
  const runs: TextRun[] = [
    { text: siteName, weight: 700 },
    { text: title, weight: 800 },
    { text: description, weight: 400 },
  ]
  const svg = await satori(
    <div
      style={{
        width: '100%',
        height: '100%',
        boxSizing: 'border-box',
        display: 'flex',
        flexDirection: 'column',
        justifyContent: 'space-between',
        padding: 80,
        background: 'linear-gradient(135deg, #eef2ff 0%, #ffffff 60%)',
        fontFamily: SHARE_IMAGE_FONT_FAMILY,
      }}
    >
      <div style={{ display: 'flex', alignItems: 'center', gap: 20, fontSize: 44, fontWeight: 700, color: '#0f172a' }}>
        <div
          style={{
            width: 72,
            height: 72,
            flexShrink: 0,
            borderRadius: 16,
            background: '#4f46e5',
            color: '#fff',
            display: 'flex',
            alignItems: 'center',
            justifyContent: 'center',
          }}
        >
          {firstGrapheme(siteName)}
        </div>
        <div style={{ display: 'block', lineClamp: 1, overflowWrap: 'anywhere' }}>{siteName}</div>
      </div>
      {/* A title of any length stays inside the image: long words break, a fourth line becomes an ellipsis. */}
      <div style={{ fontSize: 72, fontWeight: 800, color: '#0f172a', lineHeight: 1.1, display: 'block', lineClamp: 3, overflowWrap: 'anywhere' }}>{title}</div>
      <div style={{ fontSize: 30, color: '#4338ca', display: 'block', lineClamp: 2, overflowWrap: 'anywhere' }}>{description}</div>
    </div>,
    { width: WIDTH, height: HEIGHT, fonts: await fontsFor(runs), loadAdditionalAsset },
  )
  const png = await sharp(Buffer.from(svg)).png().toBuffer()
  return new Response(new Uint8Array(png), {
    headers: {
      'content-type': 'image/png',
      // What next/og's ImageResponse sent.
      'cache-control': process.env.NODE_ENV === 'development' ? 'no-cache, no-store' : 'public, immutable, no-transform, max-age=31536000',
    },
  })
}
