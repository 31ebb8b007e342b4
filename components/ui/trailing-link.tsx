import type { SiteLink } from '@/sanity/content/types'

/** A content link after a sentence (a banner's or a form's note), or nothing when it leads nowhere yet. */
export function TrailingLink({ link }: { link: SiteLink }) {
  if (!('href' in link)) return null
  return (
    <>
      {' '}
      <a href={link.href} className="font-medium text-brand-700 underline underline-offset-2 hover:text-brand-800">
        {link.label}
      </a>
    </>
  )
}
