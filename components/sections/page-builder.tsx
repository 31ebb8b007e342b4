import type { ComponentType } from 'react'
import type { Section } from '@/sanity/content'
import { EXPERIMENT_ATTRIBUTE, VARIANT_ATTRIBUTE, type SectionMark } from '@/components/variants/marks'
import { PageTitle } from './page-header/page-header'
import { HEADING_ID_BASE, PAGE_TITLE_SECTIONS, SECTION_COMPONENTS } from './registry'
import type { SectionContext, SectionProps } from './types'

/** Unique heading ids, from each section's anchor id or its kind: hero-title, features-title, cta-title, cta-2-title… */
export function sectionHeadingIds(sections: Pick<Section, '_type' | 'anchorId'>[]): string[] {
  const used = new Map<string, number>()
  return sections.map((section) => {
    const base = section.anchorId || HEADING_ID_BASE[section._type] || 'section'
    const count = (used.get(base) ?? 0) + 1
    used.set(base, count)
    return count === 1 ? `${base}-title` : `${base}-${count}-title`
  })
}

const reported = new Set<string>()

/** Which section draws the page's h1: the first hero or page header, or -1 when none does. */
export function mainHeadingIndex(sections: Pick<Section, '_type'>[]): number {
  return sections.findIndex((section) => PAGE_TITLE_SECTIONS.has(section._type))
}

/**
 * A page's sections, top to bottom, all rendered on the server. A section type this code does
 * not know (content published ahead of a deploy) renders nothing and is logged once.
 * Every page has exactly one h1: the first hero or page header gives it, later ones draw an h2,
 * and a page with neither opens with its title. On an experiment's variant page, the varied
 * section is wrapped in a box-less element (`display: contents`, so the layout is the page's)
 * that names the experiment and the variant shown.
 */
export function PageBuilder({
  title,
  sections,
  context,
  marks,
}: {
  title: string
  sections: Section[]
  context: SectionContext
  marks?: ReadonlyMap<string, SectionMark>
}) {
  const ids = sectionHeadingIds(sections)
  const main = mainHeadingIndex(sections)
  const drawn = sections.map((section, index) => {
    const Component = SECTION_COMPONENTS[section._type] as ComponentType<SectionProps<typeof section._type>> | undefined
    if (!Component) {
      if (!reported.has(section._type)) {
        reported.add(section._type)
        console.warn(`[page builder] Unknown section type "${section._type}": not shown. Deploy the code that renders it (components/sections/registry.ts).`)
      }
      return null
    }
    const drawn = <Component key={section._key} section={section} headingId={ids[index]!} titleLevel={index === main ? 1 : 2} context={context} />
    const mark = marks?.get(section._key)
    return mark ? (
      <div key={section._key} className="contents" {...{ [EXPERIMENT_ATTRIBUTE]: mark.experiment, [VARIANT_ATTRIBUTE]: mark.variant }}>
        {drawn}
      </div>
    ) : (
      drawn
    )
  })
  return main === -1 ? [<PageTitle key="page-title" title={title} headingId="page-main-heading" level={1} />, ...drawn] : drawn
}
