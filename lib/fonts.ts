import localFont from 'next/font/local'

// Self-hosted from the npm package: no request to a font CDN. `optional` rather than `swap`:
// when the font has not arrived by the first paint (a slow phone network, or the 404, which Next
// renders without font preloads) the page keeps the size-matched fallback instead of swapping
// fonts under the reader, so text never shifts; the next page, with the font cached, shows Inter.
export const inter = localFont({
  src: '../node_modules/@fontsource-variable/inter/files/inter-latin-wght-normal.woff2',
  variable: '--font-inter',
  display: 'optional',
  weight: '100 900',
})
