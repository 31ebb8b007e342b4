import { describe, expect, it } from 'vitest'
import { applyPerspective } from '@/tools/sanity-standin/content-lake'

const docs = [
  { _id: 'a', _type: 't', title: 'published a' },
  { _id: 'drafts.a', _type: 't', title: 'draft a' },
  { _id: 'drafts.b', _type: 't', title: 'new b' },
]

describe('the stand-in applies perspectives like the Content Lake', () => {
  it('published: no drafts', () => expect(applyPerspective(docs, 'published').map((d) => d.title)).toEqual(['published a']))
  it('drafts: drafts overlay their published documents, under the published id', () =>
    expect(applyPerspective(docs, 'drafts')).toEqual([
      { _id: 'a', _type: 't', title: 'draft a' },
      { _id: 'b', _type: 't', title: 'new b' },
    ]))
  it('raw: everything', () => expect(applyPerspective(docs, 'raw')).toHaveLength(3))
})
