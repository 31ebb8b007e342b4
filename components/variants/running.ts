import type { RunningExperimentsQueryResult } from '@/sanity/types.generated'
import { runningExperimentsQuery } from '@/sanity/queries'
import { serverEnv } from '@/lib/env'
import { addressesGeneration } from '@/sanity/content/addresses'
import { sectionedPagePath } from '@/lib/content/paths'
import { readPublished } from '@/sanity/content/published'
import { warnOnce } from '@/lib/warn-once'
import { CONTROL_VARIANT, isExperimentKey, isVariantKey } from '@/sanity/variants/assignments'
import type { ExperimentSplit } from './assign'

/** The running experiments by the path of each page they vary (its language's prefix included). */
export type RunningExperiments = { byPath: ReadonlyMap<string, readonly ExperimentSplit[]> }

/**
 * The running experiments as the proxy needs them. An experiment is left out (its pages show
 * control to everyone) when its key or a variant's is malformed, its shares exceed 100 % (the
 * Studio refuses both: content written around it), or, per page, when the page has lost the
 * section it varies or a variant has no section in the page's language; each is logged once.
 */
export function toRunningExperiments(raw: RunningExperimentsQueryResult): RunningExperiments {
  const byPath = new Map<string, ExperimentSplit[]>()
  for (const item of raw) {
    const variants = (item.variants ?? []).map(({ key, share }) => ({ key: key ?? '', share: typeof share === 'number' ? share : 0 }))
    const languagesOf = new Map((item.variants ?? []).map((variant) => [variant.key, variant.languages]))
    const total = variants.reduce((sum, variant) => sum + variant.share, 0)
    if (
      !isExperimentKey(item.key) ||
      variants.some((variant) => !isVariantKey(variant.key) || variant.key === CONTROL_VARIANT) ||
      total > 100 ||
      !item.sectionKey
    ) {
      warnOnce(`[experiments] The experiment ${JSON.stringify(item.key)} is not run: its key, a variant's key or its shares break the Studio's rules`)
      continue
    }
    for (const page of item.pages) {
      const path = sectionedPagePath(page)
      if (!path) continue
      if (!page.sectionKeys.includes(item.sectionKey)) {
        warnOnce(`[experiments] The experiment "${item.key}" shows control on ${path}: the page has no section "${item.sectionKey}" any more`)
        continue
      }
      // Nobody is counted for a variant they could not be shown: a language some variant has no section in is left out.
      const missing = variants.filter((variant) => !languagesOf.get(variant.key)?.includes(page.language)).map((variant) => variant.key)
      if (missing.length > 0) {
        warnOnce(`[experiments] The experiment "${item.key}" is not run on ${path}: the variant(s) ${missing.join(', ')} have no section in ${page.language}`)
        continue
      }
      byPath.set(path, [...(byPath.get(path) ?? []), { key: item.key, variants, sectionKey: item.sectionKey }])
    }
  }
  return { byPath }
}

/**
 * The published running experiments as Sanity answers them, past every cache: the one read of
 * experiment documents for the proxy (runningExperiments below) and the database's sync
 * (./sync.ts); the variant page reads its one experiment with its sections (sanity/content).
 */
export function readRunningExperiments(): Promise<RunningExperimentsQueryResult> {
  return readPublished<RunningExperimentsQueryResult>(runningExperimentsQuery)
}

type Held = { generation: number; loadedAt: number; running: Promise<RunningExperiments> }
const HELD = Symbol.for('heardly.experiments.running')
const holder = globalThis as { [HELD]?: Held }

/** After a failed read, how soon a request reads again (the list in hand answering meanwhile). */
const RETRY_MS = 1_000

/**
 * Read as the proxy's addresses are (sanity/content/addresses.ts): in memory, again after a publish
 * that changed addresses or experiments, and after the revalidation period. A read that fails keeps
 * the list in hand answering (the content API failing during a publish must not switch every
 * participant to control while their cookie, and so their sign-up, still names their variant) and
 * is tried again a second later; with no list in hand yet, everyone sees control meanwhile.
 */
export function runningExperiments(now = Date.now()): Promise<RunningExperiments> {
  const held = holder[HELD]
  const generation = addressesGeneration()
  const periodMs = serverEnv().contentRevalidateSeconds * 1000
  if (held && held.generation === generation && now - held.loadedAt < periodMs) return held.running
  const read = readRunningExperiments().then(toRunningExperiments)
  const running = held ? read.catch(() => held.running) : read
  holder[HELD] = { generation, loadedAt: now, running }
  read.catch((error: Error) => {
    if (holder[HELD]?.running === running) holder[HELD] = held && { generation, loadedAt: now - periodMs + RETRY_MS, running: held.running }
    console.error(`[experiments] Could not load the running experiments${held ? ' (the last ones read answer meanwhile)' : ''}: ${error.message}`)
  })
  return running
}
