import { Rss } from 'lucide'
import { SvgIcon } from '@/components/ui/svg-icon'

/** A visible link to a feed (the head's <link rel="alternate"> is for feed readers; this is for people). */
export function FeedLink({ href, label }: { href: string; label: string }) {
  return (
    <a href={href} className="inline-flex items-center gap-2 font-medium text-brand-700 hover:underline">
      <SvgIcon icon={Rss} className="size-4" />
      {label}
    </a>
  )
}
