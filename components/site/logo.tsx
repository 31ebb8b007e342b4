import { prerenderOn } from '@/lib/prerender'

/** The site's name, leading to the home page in the page's language. */
export function Logo({ name, href, inverted = false }: { name: string; href: string; inverted?: boolean }) {
  return (
    <a href={href} {...prerenderOn} className={`inline-flex items-center gap-2 text-lg font-bold ${inverted ? 'text-white' : 'text-slate-900'}`}>
      <span aria-hidden="true" className="grid size-8 place-items-center rounded-lg bg-brand-600 text-sm text-white">
        {name.slice(0, 1)}
      </span>
      {name}
    </a>
  )
}
