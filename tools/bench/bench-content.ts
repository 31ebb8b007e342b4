import { cp, mkdir, writeFile } from 'node:fs/promises'
import path from 'node:path'
import { userAgents } from 'lighthouse/core/config/constants.js'
import { editorsCampaignExample, editorsExample, variantSection, type CampaignDocument, type ExperimentDocument } from '../content/experiment-example'
import { decodeEntities } from './page-weight'
import type { MeasuredVariant } from './quality-budget'
import { readSeedDataset, type SeedDocument } from '../../sanity/seed/dataset'
import { CONSENT_COOKIE, CONSENT_COOKIE_GRANTED } from '../../components/analytics/consent-cookie'
import { EXPERIMENTS_COOKIE, serializeAssignments } from '../../sanity/variants/assignments'

/**
 * The bench's own content: the seed dataset with one experiment running and one campaign version
 * published, the editors' guide's examples (the landing page's hero as variant `b`, and in the
 * words of the LinkedIn campaign), so the bench measures the landing page as variant b and as the
 * campaign's visitors get it, beside control. Its own copy, so the seed and a developer's content
 * stay as they are.
 */
export const BENCH_CONTENT_DIR = path.join('.local', 'bench')
export const BENCH_SEED_PATH = path.join(BENCH_CONTENT_DIR, 'seed.ndjson')

/** How a measured page asks for its version (see MeasuredVariant), and how its HTML is told from control's. */
export type PageVariant = MeasuredVariant & {
  /** The version's headline, which its HTML must carry (else the proxy served control). */
  headline: string
  /** Control's headline, which its HTML must not carry. */
  controlHeadline: string
}

/** The versions the bench measures beside control. */
export type BenchVersions = { variant: PageVariant; campaign: PageVariant }

/**
 * Headers for every request that loads a version's page. The proxy takes a request without a
 * browser's user agent for a crawler (Node's fetch says `node`), and a crawler always sees
 * control; Lighthouse's own mobile user agent is the one its runs send. An experiment's variant
 * also needs its cookies; a campaign's version needs only its address.
 */
export const variantRequestHeaders = (variant: PageVariant): Record<string, string> => ({
  ...('cookie' in variant ? { cookie: variant.cookie } : {}),
  'user-agent': userAgents.mobile,
})

/** The query that asks for a version's page: a campaign's tags, or nothing (a variant goes by its cookie). */
export const variantQuery = (variant: PageVariant | undefined): string => (variant && 'query' in variant ? variant.query : '')

/** A target section's headline on its page in the seed, or a thrown error naming the example the bench cannot tell from control. */
function controlHeadlineOf(seed: readonly SeedDocument[], target: { page: { _ref: string }; sectionKey: string }, example: string): string {
  const page = seed.find((doc) => doc._id === target.page._ref) as { sections?: { _key: string; title?: string }[] } | undefined
  const headline = page?.sections?.find((section) => section._key === target.sectionKey)?.title
  if (!headline)
    throw new Error(
      `the seed has no section "${target.sectionKey}" with a headline on "${target.page._ref}", which the editors' ${example} (docs/editors.md) replaces: the bench cannot tell its page from control`,
    )
  return headline
}

/**
 * The bench's dataset: the seed with `example` added, running, and `campaign` published, and the
 * versions to measure: the example's first variant, and the campaign's version, in English, on
 * the page each replaces a section of.
 */
export function benchContent(
  seed: readonly SeedDocument[],
  example: ExperimentDocument,
  campaign: CampaignDocument,
): { documents: SeedDocument[] } & BenchVersions {
  const experiment = { ...example, state: 'running' }
  const variant = experiment.variants[0]!
  const key = experiment.key.current
  const campaignSection = campaign.sections.find((section) => section.language === 'en')?.sections[0]
  if (!campaignSection) throw new Error(`the editors' campaign example "${campaign.key.current}" has no English section: the bench cannot measure it`)
  const tags = new URLSearchParams({ utm_campaign: campaign.utmCampaign, ...(campaign.utmSource ? { utm_source: campaign.utmSource } : {}) })
  return {
    documents: [...seed.filter((doc) => doc._id !== experiment._id && doc._id !== campaign._id), experiment, campaign as unknown as SeedDocument],
    variant: {
      experiment: key,
      key: variant.key,
      cookie: `${CONSENT_COOKIE}=${CONSENT_COOKIE_GRANTED}; ${EXPERIMENTS_COOKIE}=${serializeAssignments({ [key]: variant.key })}`,
      headline: variantSection(experiment, 'en', variant.key).title,
      controlHeadline: controlHeadlineOf(seed, experiment.target, 'experiment example'),
    },
    campaign: {
      campaign: campaign.key.current,
      query: `?${tags}`,
      headline: campaignSection.title,
      controlHeadline: controlHeadlineOf(seed, campaign.target, 'campaign example'),
    },
  }
}

/** Writes the bench's dataset (with the seed's images beside it, where the dataset's image references look) and returns the versions to measure. */
export async function writeBenchContent(): Promise<BenchVersions> {
  const { documents, ...versions } = benchContent(await readSeedDataset('sanity/seed/production.ndjson'), editorsExample(), editorsCampaignExample())
  await mkdir(BENCH_CONTENT_DIR, { recursive: true })
  await writeFile(BENCH_SEED_PATH, `${documents.map((doc) => JSON.stringify(doc)).join('\n')}\n`)
  await cp('sanity/seed/images', path.join(BENCH_CONTENT_DIR, 'images'), { recursive: true })
  return versions
}

/** What a report keeps of a version: how it was asked for, without the headlines it was checked by. */
export function measuredVariant(variant: PageVariant): MeasuredVariant {
  return 'campaign' in variant
    ? { campaign: variant.campaign, query: variant.query }
    : { experiment: variant.experiment, key: variant.key, cookie: variant.cookie }
}

/** Throws unless `html` is the version's page: a page of control measured as the version would be reported as the version. */
export function assertServesVariant(html: string, variant: PageVariant, where: string): void {
  const text = decodeEntities(html)
  const has = (words: string) => text.includes(words)
  if (has(variant.headline) && !has(variant.controlHeadline)) return
  const expected = 'campaign' in variant ? `campaign version ${variant.campaign}` : `variant ${variant.key}`
  const asked =
    'campaign' in variant
      ? `the address's tags (${variant.query}) and a browser's user agent reach the proxy, and is the campaign published`
      : 'the consent and experiments cookies reach the proxy, and is the experiment running'
  throw new Error(
    `${where}: expected ${expected} (headline "${variant.headline}") but the site served ${has(variant.controlHeadline) ? 'control' : 'neither side'}. Did ${asked} in ${BENCH_SEED_PATH}?`,
  )
}
