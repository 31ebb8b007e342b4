import type { SVGProps } from 'react'

// The few icons client islands draw, as plain SVG: importing them from lucide-react would
// add its icon factory to every page's first-load JavaScript. Server components keep lucide.

type GlyphProps = Omit<SVGProps<SVGSVGElement>, 'children'>

function Glyph({ children, ...props }: GlyphProps & { children: React.ReactNode }) {
  return (
    <svg viewBox="0 0 24 24" fill="none" stroke="currentColor" strokeWidth={2} strokeLinecap="round" strokeLinejoin="round" aria-hidden="true" focusable="false" {...props}>
      {children}
    </svg>
  )
}

export const MenuGlyph = (props: GlyphProps) => (
  <Glyph {...props}>
    <path d="M4 6h16M4 12h16M4 18h16" />
  </Glyph>
)

export const CloseGlyph = (props: GlyphProps) => (
  <Glyph {...props}>
    <path d="M18 6 6 18M6 6l12 12" />
  </Glyph>
)

export const ChevronDownGlyph = (props: GlyphProps) => (
  <Glyph {...props}>
    <path d="m6 9 6 6 6-6" />
  </Glyph>
)

export const CheckCircleGlyph = (props: GlyphProps) => (
  <Glyph {...props}>
    <circle cx="12" cy="12" r="10" />
    <path d="m9 12 2 2 4-4" />
  </Glyph>
)
