/**
 * The questions at sign-up as the Studio and the site hold them, over the seed with groq-js: the
 * Studio's schema (run as content:publish runs it) accepts the editors' guide's example and refuses
 * what the guide says it refuses; the waitlist page in each language reads the questions in its
 * words; and the form draws them as fieldsets with legends, radios, boxes and a 200-character line,
 * in the server's HTML (what a browser without JavaScript gets).
 */
import { readFileSync } from 'node:fs'
import { renderToStaticMarkup } from 'react-dom/server'
import { describe, expect, it } from 'vitest'
import { schemaTypes } from '@/sanity/schemaTypes'
import { validateDocuments } from '@/sanity/validate-documents'
import { evaluateQuery, parseNdjson, type SeedDocument } from '@/sanity/seed/dataset'
import { waitlistPageQuery } from '@/sanity/queries'
import type { WaitlistPageQueryResult } from '@/sanity/types.generated'
import { toWaitlistPage } from '@/sanity/content/reshape'
import { editorsQuestionsExample } from '@/tools/content/experiment-example'
import { QuestionFields } from '@/components/waitlist/question-fields'

const seed = parseNdjson(readFileSync('sanity/seed/production.ndjson', 'utf8'))
const example = editorsQuestionsExample()
const withDoc = (doc: unknown) => [...seed.filter((existing) => existing._id !== example._id), doc as SeedDocument]
const problemsWith = (doc: unknown) => validateDocuments(schemaTypes as never, withDoc(doc))
const questions = () => structuredClone(example.questions) as Record<string, unknown>[]
const withQuestions = (list: unknown[]) => ({ ...example, questions: list })

describe('the Studio’s rules for the questions document', () => {
  it('accepts the editors’ guide’s example, and no question at all', async () => {
    expect(await problemsWith(example)).toEqual([])
    expect(await problemsWith(withQuestions([]))).toEqual([])
  })

  it('refuses duplicate keys and options, more than 12 options or 5 questions, a missing language, and words that break the plain-text rule', async () => {
    const [role] = questions() as [{ options: Record<string, unknown>[]; label: Record<string, unknown>[] }]
    const cases: [unknown[], RegExp][] = [
      [[...questions(), { ...questions()[0], _key: 'again' }], /Two questions use the key "role"/],
      [[{ ...role, options: [...role.options, { ...role.options[0], _key: 'twice' }] }], /Two options use the key "product-manager"/],
      [
        [
          {
            ...role,
            options: Array.from({ length: 13 }, (_, i) => ({
              ...role.options[0],
              _key: `o${i}`,
              key: `o${i}`,
              label: [
                { _key: 'en', language: 'en', text: `O${i}` },
                { _key: 'de', language: 'de', text: `O${i}` },
              ],
            })),
          },
        ],
        /At most 12 options/,
      ],
      [Array.from({ length: 6 }, (_, i) => ({ ...role, _key: `q${i}`, key: `q${i}` })), /At most 5 questions/],
      [[{ ...role, label: role.label.filter((entry) => entry.language === 'en') }], /Add the de text: the page is published in de/],
      [[{ ...role, label: [{ _key: 'en', language: 'en', text: 'Role\u202e?' }, role.label[1]] }], /text-direction control/],
      [[{ ...role, key: 'Role' }], /lowercase letters, digits and hyphens/],
    ]
    for (const [list, problem] of cases) expect(await problemsWith(withQuestions(list)), String(problem)).toEqual([expect.stringMatching(problem)])
  })
})

describe('the waitlist page and its form', () => {
  const page = async (language: string) =>
    toWaitlistPage((await evaluateQuery(withDoc(example), waitlistPageQuery, { language })) as NonNullable<WaitlistPageQueryResult>, '', language)

  it('reads the questions in the page’s language; the seed asks none', async () => {
    const [en, de] = [await page('en'), await page('de')]
    expect(en.questions.map((question) => question.label)).toEqual([
      'What is your role?',
      'How many people build your product?',
      'What would you ask your users first?',
    ])
    expect(de.questions[0]!.options.map((option) => option.label)).toEqual(['Produktmanagement', 'Gründung', 'Nutzerforschung', 'Etwas anderes'])
    const seeded = toWaitlistPage((await evaluateQuery(seed, waitlistPageQuery, { language: 'en' })) as NonNullable<WaitlistPageQueryResult>, '', 'en')
    expect(seeded.questions).toEqual([])
  })

  it('draws each as a fieldset with its legend (a radio group for one choice), and the short answer as a labelled line of at most 200', async () => {
    const en = await page('en')
    const html = renderToStaticMarkup(<QuestionFields questions={en.questions} errors={{ role: 'required' }} copy={en.form} onAnswer={() => {}} />)
    expect(html).toContain('<fieldset aria-describedby="waitlist-answer-role-error" role="radiogroup" aria-required="true" aria-invalid="true"><legend')
    expect(html).toContain('What is your role?<span aria-hidden="true"> *</span></legend>')
    expect(html.split('name="answer-role"').length - 1).toBe(4)
    expect(html).toContain(`<p id="waitlist-answer-role-error" class="mt-1.5 text-sm text-red-700">${en.form.errorChoose}</p>`)
    const line = /<input[^>]*id="waitlist-answer-first-question"[^>]*>/.exec(html)?.[0]
    expect(line).toMatch(/maxLength="200"/i)
    expect(html).toContain(
      '<label for="waitlist-answer-first-question" class="block text-sm font-medium text-slate-700">What would you ask your users first?</label>',
    )
  })
})
