import 'server-only'
import type { Metadata } from 'next'
import { notFound } from 'next/navigation'
import { getCampaign, getExperiment, type Section } from '@/sanity/content'
import { warnOnce } from '@/lib/warn-once'
import { CONTROL_VARIANT } from '@/sanity/variants/assignments'
import type { SectionMark } from './marks'
import { parseVariantSegment, type RouteVariants } from './segment'

/**
 * A variant page's metadata: the page's own, canonical address included; a campaign version's is
 * also kept out of search indexes (a crawler is shown the page as published by the proxy, this is
 * for one it does not know), so only the page as published is ever listed.
 */
export async function variantMetadata(params: Promise<{ lang: string }>, metadata: Metadata | Promise<Metadata>): Promise<Metadata> {
  const [parsed, own] = [parseVariantSegment((await params).lang), await metadata]
  return parsed?.campaigns.length ? { ...own, robots: { index: false, follow: true } } : own
}

/** The variants and campaign versions a page's [lang] segment names; a segment the proxy never writes is a 404. */
export async function routeVariants(params: Promise<{ lang: string }>): Promise<RouteVariants> {
  const parsed = parseVariantSegment((await params).lang)
  if (!parsed) notFound()
  return { shown: parsed.shown, campaigns: parsed.campaigns }
}

/**
 * A page's sections with each experiment's variant in place of the section it varies, and the
 * marks for the sections a participant was shown (control included: its participants are counted
 * too); then each campaign version in place of its section, which it takes from any experiment
 * there (no mark: that visitor saw no variant, and no exposure is sent). An experiment that
 * stopped, a variant or campaign version that no longer exists, or a section gone from the page or
 * missing in this language, shows the page as published there, logged once.
 */
export async function withVariants(
  sections: Section[],
  { shown, campaigns }: RouteVariants,
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
  for (const key of campaigns) {
    const campaign = await getCampaign(key, language)
    const index = campaign ? result.findIndex((section) => section._key === campaign.sectionKey) : -1
    if (!campaign?.section || index === -1) {
      warnOnce(
        `[campaigns] The campaign version "${key}" shows the page as published in ${language}: it is unpublished, or its section is not on the page or not written in that language`,
      )
      continue
    }
    result = result.with(index, { ...campaign.section, _key: result[index]!._key } as Section)
    marks.delete(campaign.sectionKey)
  }
  return { sections: result, marks }
}
