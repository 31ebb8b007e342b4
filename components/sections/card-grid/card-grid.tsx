import type { SectionOf } from '@/sanity/content'
import { cn } from '@/lib/cn'
import { Icon } from '@/components/ui/icon'

/** Icon cards: features, audiences, values. */
export function CardGrid({ items, columns = 3 }: { items: SectionOf<'cardGridSection'>['items']; columns?: 2 | 3 | 4 }) {
  return (
    <ul className={cn('mt-12 grid gap-6 sm:grid-cols-2', columns === 3 && 'lg:grid-cols-3', columns === 4 && 'lg:grid-cols-4')}>
      {items.map((item) => (
        <li key={item._key} className="rounded-2xl border border-slate-200 bg-white p-6 shadow-sm">
          <IconBadge name={item.icon} />
          <h3 className="mt-4 text-lg font-semibold text-slate-900">{item.title}</h3>
          <p className="mt-2 text-slate-600">{item.description}</p>
        </li>
      ))}
    </ul>
  )
}

/** A card's icon on its tinted square (the cards and the rows layouts). */
export function IconBadge({ name }: { name: SectionOf<'cardGridSection'>['items'][number]['icon'] }) {
  return (
    <span className="grid size-11 place-items-center rounded-xl bg-brand-50 text-brand-600">
      <Icon name={name} className="size-5" />
    </span>
  )
}
