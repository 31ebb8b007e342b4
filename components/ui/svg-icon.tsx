import { createElement, type SVGProps } from 'react'
import type { IconNode } from 'lucide'

/**
 * Draws one of Lucide's icons (the `lucide` package's plain data, not lucide-react) as inline
 * SVG. lucide-react's `Icon` is a client component, so every icon drawn with it, even from a
 * server component, put its code and each icon's paths into the page's JavaScript; this is a
 * plain function, free on the server and a few bytes in the client islands that need it.
 * Decorative: hidden from assistive technology, the text beside it carries the meaning.
 */
export function SvgIcon({ icon, ...props }: { icon: IconNode } & Omit<SVGProps<SVGSVGElement>, 'children'>) {
  return (
    <svg
      viewBox="0 0 24 24"
      fill="none"
      stroke="currentColor"
      strokeWidth={2}
      strokeLinecap="round"
      strokeLinejoin="round"
      aria-hidden="true"
      focusable="false"
      {...props}
    >
      {icon.map(([tag, attributes], index) => createElement(tag, { key: index, ...attributes }))}
    </svg>
  )
}
