import 'server-only'
import { notFound } from 'next/navigation'
import { getExperiment, type Section } from '@/sanity/content'
import { warnOnce } from '@/lib/warn-once'
import { CONTROL_VARIANT } from '@/sanity/experiments/assignments'
import type { SectionMark } from './marks'
import { parseVariantSegment } from './segment'

/** The variants a page's [lang] segment names; a segment the proxy never writes is a 404. */
export async function routeVariants(params: Promise<{ lang: string }>) {
  const parsed = parseVariantSegment((await params).lang)
  if (!parsed) notFound()
  return parsed.shown
}

/**
 * A page's sections with each experiment's variant in place of the section it varies, and the
 * marks for the sections a participant was shown (control included: its participants are counted
 * too). An experiment that stopped, a variant that no longer exists, or a section gone from the
 * page or missing in this language, shows the page as published there, logged once.
 */
export async function withVariants(
  sections: Section[],
  shown: Readonly<Record<string, string>>,
  language: string,
): Promise<{ sections: Section[]; marks: Map<string, SectionMark> }> {
  const marks = new Map<string, SectionMark>()
  let result = sections
  for (const [key, variantKey] of Object.entries(shown)) {
    const experiment = await getExperiment(key, language)
    if (!experiment || experiment.state !== 'running' || !experiment.sectionKey) continue
    const index = result.findIndex((section) => section._key === experiment.sectionKey)
    if (index === -1) {
      warnOnce(`[experiments] The experiment "${key}" shows control: its section "${experiment.sectionKey}" is not on the page (${language}) any more`)
      continue
    }
    const control = result[index]!
    if (variantKey === CONTROL_VARIANT) {
      marks.set(control._key, { experiment: key, variant: CONTROL_VARIANT })
      continue
    }
    const variant = experiment.variants.find((candidate) => candidate.key === variantKey)
    if (!variant) continue
    if (!variant.section) {
      warnOnce(`[experiments] The variant "${variantKey}" of the experiment "${key}" shows control in ${language}: it has no section in that language`)
      continue
    }
    // The control's key: heading ids and anchors stay those of the page.
    result = result.with(index, { ...variant.section, _key: control._key } as Section)
    marks.set(control._key, { experiment: key, variant: variantKey })
  }
  return { sections: result, marks }
}
