import { cp, mkdir, writeFile } from 'node:fs/promises'
import path from 'node:path'
import { userAgents } from 'lighthouse/core/config/constants.js'
import { editorsExample, variantSection, type ExperimentDocument } from '../content/experiment-example'
import { decodeEntities } from './page-weight'
import type { MeasuredVariant } from './quality-budget'
import { readSeedDataset, type SeedDocument } from '../../sanity/seed/dataset'
import { CONSENT_COOKIE, CONSENT_COOKIE_GRANTED } from '../../components/analytics/consent-cookie'
import { EXPERIMENTS_COOKIE, serializeAssignments } from '../../sanity/experiments/assignments'

/**
 * The bench's own content: the seed dataset with one experiment running, the editors' guide's
 * example (the landing page's hero, variant `b`), so the bench measures the landing page as
 * variant b beside control. Its own copy, so the seed and a developer's content stay as they are.
 */
export const BENCH_CONTENT_DIR = path.join('.local', 'bench')
export const BENCH_SEED_PATH = path.join(BENCH_CONTENT_DIR, 'seed.ndjson')

/** How a measured page asks for a variant (`cookie`: consent, and the variant held, as after an earlier visit), and how its HTML is told from control's. */
export type PageVariant = MeasuredVariant & {
  /** The variant's headline, which its HTML must carry (else the proxy served control). */
  headline: string
  /** Control's headline, which its HTML must not carry. */
  controlHeadline: string
}

/**
 * Headers for every request that loads a variant page. The proxy takes a request without a
 * browser's user agent for a crawler (Node's fetch says `node`), and a crawler always sees
 * control; Lighthouse's own mobile user agent is the one its runs send.
 */
export const variantRequestHeaders = (variant: PageVariant): Record<string, string> => ({ cookie: variant.cookie, 'user-agent': userAgents.mobile })

/**
 * The bench's dataset: the seed with `example` added, running, and the variant to measure: the
 * example's first variant, in English, on the page it varies.
 */
export function benchContent(seed: readonly SeedDocument[], example: ExperimentDocument): { documents: SeedDocument[]; variant: PageVariant } {
  const experiment = { ...example, state: 'running' }
  const variant = experiment.variants[0]!
  const headline = variantSection(experiment, 'en', variant.key).title
  const page = seed.find((doc) => doc._id === experiment.target.page._ref) as { sections?: { _key: string; title?: string }[] } | undefined
  const controlHeadline = page?.sections?.find((section) => section._key === experiment.target.sectionKey)?.title
  if (!controlHeadline)
    throw new Error(
      `the seed has no section "${experiment.target.sectionKey}" with a headline on "${experiment.target.page._ref}", which the editors' example (docs/editors.md) varies: the bench cannot tell its variant from control`,
    )
  const key = experiment.key.current
  return {
    documents: [...seed.filter((doc) => doc._id !== experiment._id), experiment],
    variant: {
      experiment: key,
      key: variant.key,
      cookie: `${CONSENT_COOKIE}=${CONSENT_COOKIE_GRANTED}; ${EXPERIMENTS_COOKIE}=${serializeAssignments({ [key]: variant.key })}`,
      headline,
      controlHeadline,
    },
  }
}

/** Writes the bench's dataset (with the seed's images beside it, where the dataset's image references look) and returns the variant to measure. */
export async function writeBenchContent(): Promise<PageVariant> {
  const { documents, variant } = benchContent(await readSeedDataset('sanity/seed/production.ndjson'), editorsExample())
  await mkdir(BENCH_CONTENT_DIR, { recursive: true })
  await writeFile(BENCH_SEED_PATH, `${documents.map((doc) => JSON.stringify(doc)).join('\n')}\n`)
  await cp('sanity/seed/images', path.join(BENCH_CONTENT_DIR, 'images'), { recursive: true })
  return variant
}

/** Throws unless `html` is the variant's page: a page of control measured as the variant would be reported as the variant. */
export function assertServesVariant(html: string, variant: Pick<PageVariant, 'key' | 'headline' | 'controlHeadline'>, where: string): void {
  const text = decodeEntities(html)
  const has = (words: string) => text.includes(words)
  if (has(variant.headline) && !has(variant.controlHeadline)) return
  throw new Error(
    `${where}: expected variant ${variant.key} (headline "${variant.headline}") but the site served ${has(variant.controlHeadline) ? 'control' : 'neither side'}. Did the consent and experiments cookies reach the proxy, and is the experiment running in ${BENCH_SEED_PATH}?`,
  )
}
