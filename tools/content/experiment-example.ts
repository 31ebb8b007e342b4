import { readFileSync } from 'node:fs'

/** An experiment document as content:publish takes it. */
export type ExperimentDocument = {
  _id: string
  _type: 'experiment'
  title: string
  key: { _type: 'slug'; current: string }
  state: string
  goal: string
  target: { page: { _type: 'reference'; _ref: string }; sectionKey: string }
  variants: {
    _key: string
    _type: string
    key: string
    share: number
    sections: { _key: string; _type: string; language: string; sections: ({ title: string } & Record<string, unknown>)[] }[]
  }[]
}

/**
 * The editors' guide's complete example (docs/editors.md, "Experiments"), as an editor copies it.
 * Read from the guide itself, so the end-to-end tests (e2e/experiments-*.spec.ts) and the bench's
 * variant page (tools/bench/bench-content.ts) run the very document the guide promises works.
 */
export function editorsExample(): ExperimentDocument {
  return guideExample('Experiments') as ExperimentDocument
}

/** A campaign version document as content:publish takes it. */
export type CampaignDocument = {
  _id: string
  _type: 'campaign'
  title: string
  key: { _type: 'slug'; current: string }
  utmCampaign: string
  utmSource?: string
  target: { page: { _type: 'reference'; _ref: string }; sectionKey: string }
  sections: { _key: string; _type: string; language: string; sections: ({ title: string } & Record<string, unknown>)[] }[]
}

/** The editors' guide's complete campaign example (docs/editors.md, "Campaigns"), read the same way. */
export function editorsCampaignExample(): CampaignDocument {
  return guideExample('Campaigns') as CampaignDocument
}

/** The questions at sign-up as content:publish takes them. */
export type QuestionsDocument = {
  _id: 'waitlistQuestions'
  _type: 'waitlistQuestions'
  questions: {
    key: string
    kind: 'one' | 'many' | 'text'
    required: boolean
    label: { language: string; text: string }[]
    options?: { key: string; label: { language: string; text: string }[] }[]
  }[]
}

/** The editors' guide's complete questions example (docs/editors.md, "Questions at sign-up"), read the same way. */
export function editorsQuestionsExample(): QuestionsDocument {
  return guideExample('Questions at sign-up') as QuestionsDocument
}

/** The first JSON block under a heading of the editors' guide. */
function guideExample(heading: string): unknown {
  const block = new RegExp(`\\n## ${heading}\\n[\\s\\S]*?\`\`\`json\\n([\\s\\S]*?)\\n\`\`\``).exec(readFileSync('docs/editors.md', 'utf8'))
  if (!block) throw new Error(`docs/editors.md has no JSON example under "## ${heading}"`)
  return JSON.parse(block[1]!)
}

/** A variant's section in one language (the experiment's first variant unless named): its headline is what tells its page from control's. */
export function variantSection(experiment: ExperimentDocument, language: string, variantKey = experiment.variants[0]!.key) {
  const variant = experiment.variants.find((candidate) => candidate.key === variantKey)
  const section = variant?.sections.find((candidate) => candidate.language === language)?.sections[0]
  if (!section) throw new Error(`the experiment "${experiment.key.current}" has no section for variant "${variantKey}" in ${language}`)
  return section
}

/** The reward ladder as content:publish takes it. */
export type RewardsDocument = {
  _id: 'waitlistRewards'
  _type: 'waitlistRewards'
  rungs: {
    key: string
    threshold: number
    kind: 'places' | 'perk'
    places?: number
    approval?: 'instant' | 'held'
    title: { language: string; text: string }[]
    description: { language: string; text: string }[]
  }[]
}

/** The editors' guide's complete reward ladder (docs/editors.md, "Rewards for bringing friends"), read the same way. */
export function editorsRewardsExample(): RewardsDocument {
  return guideExample('Rewards for bringing friends') as RewardsDocument
}

/** The research tasks as content:publish takes them. */
export type TasksDocument = {
  _id: 'waitlistTasks'
  _type: 'waitlistTasks'
  tasks: {
    key: string
    places: number
    title: { language: string; text: string }[]
    questions: {
      key: string
      kind: 'one' | 'many' | 'text'
      label: { language: string; text: string }[]
      options?: { key: string; label: { language: string; text: string }[] }[]
    }[]
  }[]
}

/** The editors' guide's complete research tasks (docs/editors.md, "Research tasks"), read the same way. */
export function editorsTasksExample(): TasksDocument {
  return guideExample('Research tasks') as TasksDocument
}
