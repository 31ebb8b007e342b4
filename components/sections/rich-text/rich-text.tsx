import { PortableText, toPlainText, type PortableTextBlock, type PortableTextComponents, type PortableTextMarkComponentProps } from '@portabletext/react'
import { stegaClean } from '@sanity/client/stega'
import type { ReactNode } from 'react'
import type { PostBody, RichTextBody } from '@/sanity/content'
import { publicEnv } from '@/lib/env'
import { cn } from '@/lib/cn'
import { pagePath } from '@/lib/content/paths'
import { RICH_TEXT_LINK_SCHEMES } from '@/sanity/sections/rich-text/rules'
import { sanityImageAttributes, type ImageValue } from '@/lib/content/image'
import { CodeBlock, type CodeValue } from './code-block'

// Rendered on the server only: no part of this reaches the browser as JavaScript.

/** A page's rich text, or a post's (which may also hold code blocks). */
type Body = RichTextBody | PostBody
type Block = Extract<Body[number], { _type: 'block' }>
type HeadingLevel = 'h2' | 'h3' | 'h4'

/** A table of contents appears from this many headings on. */
export const TOC_MIN_HEADINGS = 4

const HEADING_STYLES: Record<HeadingLevel, string> = {
  h2: 'mt-12 scroll-mt-24 text-2xl font-bold tracking-tight text-slate-900 first:mt-0',
  h3: 'mt-8 scroll-mt-24 text-xl font-semibold text-slate-900',
  h4: 'mt-6 scroll-mt-24 text-lg font-semibold text-slate-900',
}

const isHeading = (block: Body[number]): block is Block & { style: HeadingLevel } =>
  block._type === 'block' && (block.style === 'h2' || block.style === 'h3' || block.style === 'h4')

/** "What we collect" → "what-we-collect": readable fragment ids, unique within the text. */
export function headingIds(body: Body): Map<string, { id: string; text: string; level: HeadingLevel }> {
  const seen = new Map<string, number>()
  const ids = new Map<string, { id: string; text: string; level: HeadingLevel }>()
  for (const block of body) {
    if (!isHeading(block)) continue
    const text = stegaClean(toPlainText(block as PortableTextBlock))
    const base =
      text
        .normalize('NFKD')
        .replace(/[\u0300-\u036f]/g, '')
        .toLowerCase()
        .replace(/[^a-z0-9]+/g, '-')
        .replace(/^-+|-+$/g, '') || 'section'
    const count = (seen.get(base) ?? 0) + 1
    seen.set(base, count)
    ids.set(block._key, { id: count === 1 ? base : `${base}-${count}`, text, level: block.style })
  }
  return ids
}

/** Only the schemes the Studio allows; anything else (javascript:, data:) renders as plain text. */
export function safeHref(href: string | undefined): string | null {
  const clean = stegaClean(href ?? '').trim()
  if (!URL.canParse(clean)) return null
  return RICH_TEXT_LINK_SCHEMES.includes(new URL(clean).protocol.slice(0, -1)) ? clean : null
}

const reported = new Set<string>()

/** Content newer than the code (a block type the site does not know yet) renders nothing, and says so once. */
function reportUnknown(message: string, { type, nodeType }: { type: string; nodeType: string }) {
  const key = `${nodeType}:${type}`
  if (reported.has(key)) return
  reported.add(key)
  console.warn(`[rich text] ${message} (rendered without it; add a component for "${type}" in components/sections/rich-text)`)
}

const linkClass = 'font-medium text-brand-700 underline underline-offset-2 hover:text-brand-800'

function components(ids: ReturnType<typeof headingIds>): PortableTextComponents {
  const heading = (Tag: HeadingLevel) =>
    function Heading({ children, value }: { children?: ReactNode; value: { _key?: string } }) {
      return (
        <Tag id={ids.get(value._key ?? '')?.id} className={HEADING_STYLES[Tag]}>
          {children}
        </Tag>
      )
    }
  return {
    block: {
      normal: ({ children }) => <p className="mt-4 leading-relaxed text-slate-700">{children}</p>,
      h2: heading('h2'),
      h3: heading('h3'),
      h4: heading('h4'),
    },
    list: {
      bullet: ({ children }) => <ul className="mt-4 list-disc space-y-2 pl-6 text-slate-700">{children}</ul>,
      number: ({ children }) => <ol className="mt-4 list-decimal space-y-2 pl-6 text-slate-700">{children}</ol>,
    },
    listItem: ({ children }) => <li className="pl-1 leading-relaxed">{children}</li>,
    marks: {
      strong: ({ children }) => <strong className="font-semibold text-slate-900">{children}</strong>,
      em: ({ children }) => <em>{children}</em>,
      code: ({ children }) => <code className="rounded bg-slate-100 px-1.5 py-0.5 font-mono text-[0.9em] text-slate-800">{children}</code>,
      link: ({ children, value }: PortableTextMarkComponentProps<{ _type: 'link'; href?: string }>) => {
        const href = safeHref(value?.href)
        return href ? (
          <a href={href} rel="noopener noreferrer" className={linkClass}>
            {children}
          </a>
        ) : (
          <>{children}</>
        )
      },
      pageLink: ({ children, value }: PortableTextMarkComponentProps<{ _type: 'pageLink'; slug?: string | null; language?: string | null }>) => {
        // A link to an unpublished page is plain text until the page is published.
        const slug = stegaClean(value?.slug)
        return slug ? (
          <a href={pagePath(slug, stegaClean(value?.language) ?? undefined)} className={linkClass}>
            {children}
          </a>
        ) : (
          <>{children}</>
        )
      },
    },
    types: {
      image: ({ value }: { value: ImageValue & { alt?: string; caption?: string | null } }) => {
        const image = sanityImageAttributes(value, { projectId: publicEnv.sanityProjectId, dataset: publicEnv.sanityDataset })
        if (!image) return null
        return (
          <figure className="mt-8">
            {/* A plain <img> from Sanity's pipeline: next/image would add client JavaScript to every rich-text page. */}
            {/* eslint-disable-next-line @next/next/no-img-element */}
            <img
              {...image}
              sizes="(min-width: 768px) 768px, 100vw"
              alt={value.alt ?? ''}
              loading="lazy"
              decoding="async"
              className="h-auto w-full rounded-xl"
            />
            {value.caption ? <figcaption className="mt-2 text-sm text-slate-600">{value.caption}</figcaption> : null}
          </figure>
        )
      },
      code: ({ value }: { value: CodeValue }) => <CodeBlock value={value} />,
      callout: ({ value }: { value: { tone?: string; text?: string } }) => (
        <div
          role="note"
          className={cn(
            'mt-6 rounded-xl border-l-4 p-4 leading-relaxed',
            stegaClean(value.tone) === 'important' ? 'border-amber-500 bg-amber-50 text-amber-950' : 'border-brand-500 bg-brand-50 text-slate-800',
          )}
        >
          {value.text}
        </div>
      ),
    },
    unknownType: () => null,
  }
}

/** Portable Text with linkable headings; a table of contents above it from four headings on. */
export function RichText({ value, tocTitle, tocId }: { value: Body; tocTitle: string; tocId: string }) {
  const ids = headingIds(value)
  const toc = [...ids.values()].filter((heading) => heading.level !== 'h4')
  return (
    <>
      {ids.size >= TOC_MIN_HEADINGS ? (
        <nav aria-labelledby={tocId} className="mb-10 rounded-2xl border border-slate-200 bg-slate-50 p-6">
          <h2 id={tocId} className="text-sm font-semibold uppercase tracking-wide text-slate-600">
            {tocTitle}
          </h2>
          <ol className="mt-3 space-y-2">
            {toc.map((heading) => (
              <li key={heading.id} className={cn(heading.level === 'h3' && 'pl-4')}>
                <a href={`#${heading.id}`} className="text-brand-700 hover:underline">
                  {heading.text}
                </a>
              </li>
            ))}
          </ol>
        </nav>
      ) : null}
      <PortableText value={value} components={components(ids)} onMissingComponent={reportUnknown} />
    </>
  )
}
