import { Check, type IconNode } from 'lucide'
import { cva, type VariantProps } from 'class-variance-authority'
import { SvgIcon } from '@/components/ui/svg-icon'
import { cn } from '@/lib/cn'

const checkList = cva('', {
  variants: {
    layout: {
      // A row of short claims under a headline (the hero's highlights).
      inline: 'flex flex-wrap gap-x-6 gap-y-2 text-sm text-slate-600',
      // One claim a line (a plan's features, the waitlist's benefits).
      stacked: 'space-y-3',
    },
  },
  defaultVariants: { layout: 'stacked' },
})

const item = { inline: 'inline-flex items-center gap-1.5', stacked: 'flex gap-2 text-slate-700' }
const mark = { inline: 'size-4 text-emerald-600', stacked: 'mt-0.5 size-5 shrink-0 text-emerald-600' }

/** A list whose every item is ticked off: drawn on the server, no client code. */
export function CheckList({
  items,
  layout = 'stacked',
  icon = Check,
  className,
  itemClassName,
}: { items: string[]; icon?: IconNode; className?: string; itemClassName?: string } & VariantProps<typeof checkList>) {
  const kind = layout ?? 'stacked'
  return (
    <ul className={cn(checkList({ layout }), className)}>
      {items.map((text) => (
        <li key={text} className={cn(item[kind], itemClassName)}>
          <SvgIcon icon={icon} className={mark[kind]} />
          {text}
        </li>
      ))}
    </ul>
  )
}
