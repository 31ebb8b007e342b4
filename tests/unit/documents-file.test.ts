import { describe, expect, test } from 'vitest'
import { parseDocumentsFile } from '@/tools/content/documents-file'

const page = { _id: 'page-a', _type: 'page', title: 'A' }
const post = { _id: 'post-b', _type: 'post', title: 'B' }

describe('the file content:publish reads', () => {
  test('NDJSON, one document a line', () => {
    expect(parseDocumentsFile(`${JSON.stringify(page)}\n${JSON.stringify(post)}\n`, 'f')).toEqual([page, post])
  })
  test('one document on one line, or pretty on many', () => {
    expect(parseDocumentsFile(JSON.stringify(page), 'f')).toEqual([page])
    expect(parseDocumentsFile(JSON.stringify(page, null, 2), 'f')).toEqual([page])
    expect(parseDocumentsFile(`\n\n  ${JSON.stringify(page, null, '\t')}\n\n`, 'f')).toEqual([page])
  })
  test('a list, on one line or pretty, and Windows line ends', () => {
    expect(parseDocumentsFile(JSON.stringify([page, post]), 'f')).toEqual([page, post])
    expect(parseDocumentsFile(JSON.stringify([page, post], null, 2).replaceAll('\n', '\r\n'), 'f')).toEqual([page, post])
  })
  test('an empty file is no change', () => {
    expect(parseDocumentsFile(' \n', 'f')).toEqual([])
  })
  test('a mistake in pretty JSON is named as such, not as a bad NDJSON line', () => {
    expect(() => parseDocumentsFile('{\n  "_id": "page-a",\n  "_type": "page",\n}', 'change.json')).toThrow(/^change\.json is not valid JSON/)
  })
  test('a bad NDJSON line is named by its number', () => {
    expect(() => parseDocumentsFile(`${JSON.stringify(page)}\n{"_id": \n`, 'change.ndjson')).toThrow(/^change\.ndjson:2 is not valid JSON/)
  })
  test('what is not a document is refused, wherever it stands', () => {
    expect(() => parseDocumentsFile('[1]', 'f')).toThrow('f, item 1 is not a document')
    expect(() => parseDocumentsFile(JSON.stringify([page, { _id: 'x' }]), 'f')).toThrow('f, item 2 is not a document')
    expect(() => parseDocumentsFile('"page"', 'f')).toThrow('f is not a document')
    expect(() => parseDocumentsFile(JSON.stringify({ _id: 1, _type: 'page' }, null, 2), 'f')).toThrow('f is not a document')
    expect(() => parseDocumentsFile(`${JSON.stringify(page)}\n[]`, 'f')).toThrow('f:2 is not a document')
  })
})
