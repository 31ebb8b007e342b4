import { ImageResponse } from 'next/og'
import { getSiteSettings } from '@/lib/content'

/** The share image of a page that has none in Sanity: the site name over the page's headline. */
export async function drawShareImage(headline: string, language: string): Promise<ImageResponse> {
  const settings = await getSiteSettings(language)
  return new ImageResponse(
    (
      <div style={{ width: '100%', height: '100%', display: 'flex', flexDirection: 'column', justifyContent: 'space-between', padding: 80, background: 'linear-gradient(135deg, #eef2ff 0%, #ffffff 60%)' }}>
        <div style={{ display: 'flex', alignItems: 'center', gap: 20, fontSize: 44, fontWeight: 700, color: '#0f172a' }}>
          <div style={{ width: 72, height: 72, borderRadius: 16, background: '#4f46e5', color: '#fff', display: 'flex', alignItems: 'center', justifyContent: 'center' }}>
            {settings.siteName.slice(0, 1)}
          </div>
          {settings.siteName}
        </div>
        <div style={{ fontSize: 72, fontWeight: 800, color: '#0f172a', lineHeight: 1.1, display: 'flex' }}>{headline}</div>
        <div style={{ fontSize: 30, color: '#4338ca', display: 'flex' }}>{settings.seo.description}</div>
      </div>
    ),
    { width: 1200, height: 630 },
  )
}
