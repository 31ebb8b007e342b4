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
  variants: { _key: string; _type: string; key: string; share: number; sections: { _key: string; _type: string; language: string; sections: ({ title: string } & Record<string, unknown>)[] }[] }[]
}

/** The editors' guide's complete example (docs/editors.md, "Experiments"), as an editor copies it. */
export function editorsExample(): ExperimentDocument {
  return JSON.parse(/## Experiments[\s\S]*?```json\n([\s\S]*?)\n```/.exec(readFileSync('docs/editors.md', 'utf8'))![1]!) as ExperimentDocument
}
