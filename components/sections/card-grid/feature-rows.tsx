import { SanityImage } from '@/components/ui/sanity-image'
import type { SectionOf } from '@/sanity/content'
import { cn } from '@/lib/cn'
import { IconBadge } from './card-grid'

/** The "rows" layout: one item per row, its text beside its picture, the sides alternating on wide screens. */
export function FeatureRows({ items }: { items: SectionOf<'cardGridSection'>['items'] }) {
  return (
    <ul className="mt-16 space-y-16 lg:space-y-24">
      {items.map((item, index) => (
        <li key={item._key} data-feature-row="" className="grid items-center gap-8 lg:grid-cols-2 lg:gap-16">
          <div className={cn(index % 2 === 1 && 'lg:order-2')}>
            <IconBadge name={item.icon} />
            <h3 className="mt-4 text-2xl font-bold tracking-tight text-slate-900">{item.title}</h3>
            <p className="mt-3 text-lg text-slate-600">{item.description}</p>
          </div>
          <SanityImage image={item.image} sizes="(min-width: 1024px) 560px, 100vw" className="w-full rounded-2xl border border-slate-200 shadow-sm" />
        </li>
      ))}
    </ul>
  )
}
