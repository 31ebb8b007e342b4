import type { ReactNode } from 'react'
import localFont from 'next/font/local'
import './globals.css'

// Self-hosted from the npm package: no request to a font CDN, and next/font sizes the
// fallback so swapping in Inter shifts nothing.
const inter = localFont({
  src: '../node_modules/@fontsource-variable/inter/files/inter-latin-wght-normal.woff2',
  variable: '--font-inter',
  display: 'swap',
  weight: '100 900',
})

export default function RootLayout({ children }: { children: ReactNode }) {
  return (
    <html lang="en" className={inter.variable}>
      <body className="font-sans">{children}</body>
    </html>
  )
}
