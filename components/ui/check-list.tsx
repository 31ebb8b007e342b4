import { Check, type IconNode } from 'lucide'
import { SvgIcon } from '@/components/ui/svg-icon'
import { cn } from '@/lib/cn'

const LAYOUT = {
  // A row of short claims under a headline (the hero's highlights).
  inline: { list: 'flex flex-wrap gap-x-6 gap-y-2 text-sm text-slate-600', item: 'inline-flex items-center gap-1.5', mark: 'size-4 text-emerald-600' },
  // One claim a line (a plan's features, the waitlist's benefits).
  stacked: { list: 'space-y-3', item: 'flex gap-2 text-slate-700', mark: 'mt-0.5 size-5 shrink-0 text-emerald-600' },
}

/** A list whose every item is ticked off: drawn on the server, no client code. */
export function CheckList({
  items,
  layout = 'stacked',
  icon = Check,
  className,
  itemClassName,
}: {
  items: string[]
  layout?: keyof typeof LAYOUT
  icon?: IconNode
  className?: string
  itemClassName?: string
}) {
  const look = LAYOUT[layout]
  return (
    <ul className={cn(look.list, className)}>
      {items.map((text) => (
        <li key={text} className={cn(look.item, itemClassName)}>
          <SvgIcon icon={icon} className={look.mark} />
          {text}
        </li>
      ))}
    </ul>
  )
}
