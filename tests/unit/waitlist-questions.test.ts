/**
 * Questions at sign-up: the Studio's rules and the sync's filter (sanity/questions/rules.ts), and the
 * form's reading and judging of the answers (components/waitlist/answers.ts), including what
 * analytics may see of them.
 */
import { describe, expect, it } from 'vitest'
import {
  localizedProblem,
  optionsProblem,
  publishableQuestions,
  questionKeyProblem,
  questionListProblem,
  questionsIn,
  type FormQuestion,
  type QuestionDraft,
} from '@/sanity/questions/rules'
import { answerErrorMessage, answerFieldName, answerProperties, readAnswers, validateAnswers } from '@/components/waitlist/answers'
import { waitlistJoinProperties } from '@/components/analytics/events'
import { BLANK_TEXTS } from '../helpers/blank-text'

const en = (text: string) => [{ language: 'en', text }]
const both = (english: string, german: string) => [
  { language: 'en', text: english },
  { language: 'de', text: german },
]

const ROLE: QuestionDraft = {
  key: 'role',
  kind: 'one',
  required: true,
  label: both('What is your role?', 'Was ist Ihre Rolle?'),
  options: [
    { key: 'product-manager', label: both('Product manager', 'Produktmanagerin') },
    { key: 'founder', label: both('Founder', 'Gründerin') },
  ],
}
const TOOLS: QuestionDraft = {
  key: 'tools',
  kind: 'many',
  required: false,
  label: en('Which tools do you use?'),
  options: [
    { key: 'slack', label: en('Slack') },
    { key: 'notion', label: en('Notion') },
    { key: 'jira', label: en('Jira') },
  ],
}
const GOAL: QuestionDraft = { key: 'goal', kind: 'text', required: false, label: en('What would you ask?') }

describe('the Studio’s rules for questions', () => {
  it('keys: lowercase letters, digits and hyphens, starting with a letter', () => {
    expect(questionKeyProblem('role')).toBeNull()
    expect(questionKeyProblem('team-size')).toBeNull()
    for (const bad of [undefined, '', 'Role', '1role', 'role_', 'rôle', 'x'.repeat(41), 'role\u200b'])
      expect(questionKeyProblem(bad), String(bad)).not.toBeNull()
  })

  it('at most 5 questions, each key once', () => {
    expect(questionListProblem([ROLE, TOOLS, GOAL])).toBeNull()
    expect(questionListProblem([ROLE, { ...TOOLS, key: 'role' }])).toBe('Two questions use the key "role"')
    expect(questionListProblem(Array.from({ length: 6 }, (_, i) => ({ ...ROLE, key: `q${i}` })))).toMatch(/At most 5/)
  })

  it('a choice has 2 to 12 options, with distinct keys and labels; a short answer none', () => {
    expect(optionsProblem(ROLE)).toBeNull()
    expect(optionsProblem(GOAL)).toBeNull()
    expect(optionsProblem({ ...GOAL, options: ROLE.options })).toMatch(/no options/)
    expect(optionsProblem({ ...ROLE, options: ROLE.options!.slice(0, 1) })).toMatch(/at least 2/)
    expect(optionsProblem({ ...ROLE, options: Array.from({ length: 13 }, (_, i) => ({ key: `o${i}`, label: en(`O${i}`) })) })).toMatch(/At most 12/)
    expect(optionsProblem({ ...ROLE, options: [ROLE.options![0]!, ROLE.options![0]!] })).toBe('Two options use the key "product-manager"')
    expect(optionsProblem({ ...ROLE, options: [ROLE.options![0]!, { key: 'pm', label: en(' product MANAGER ') }] })).toBe(
      'Two options read "product manager" in en',
    )
  })

  it('words in every language the page is published in, each once, plain text within the limit', () => {
    expect(localizedProblem(both('Role', 'Rolle'), ['de'], 160)).toBeNull()
    expect(localizedProblem(en('Role'), ['de'], 160)).toBe('Add the de text: the page is published in de')
    expect(localizedProblem([{ language: 'de', text: 'Rolle' }], [], 160)).toBe('Add the en text: the page is published in en')
    expect(localizedProblem([...en('Role'), ...en('Role again')], [], 160)).toBe('Two texts are for "en": keep one')
    expect(localizedProblem(en('x'.repeat(161)), [], 160)).toMatch(/over 160/)
    expect(localizedProblem(en('Role\u202e'), [], 160)).toMatch(/text-direction/)
    expect(localizedProblem(en('two\nlines'), [], 160)).toMatch(/One line only/)
    expect(localizedProblem(en('   '), [], 160)).toBe('Write the en text')
  })
})

describe('what the sync copies to the database', () => {
  it('keeps the questions that follow the rules, in order, with their words by language', () => {
    const { questions, skipped } = publishableQuestions([
      ROLE,
      { ...TOOLS, key: 'Tools' },
      GOAL,
      { ...ROLE },
      { key: 'x', kind: 'one', label: en('X'), options: [] },
    ])
    expect(questions.map((question) => question.key)).toEqual(['role', 'goal'])
    expect(questions[0]).toEqual({
      key: 'role',
      kind: 'one',
      required: true,
      labels: { en: 'What is your role?', de: 'Was ist Ihre Rolle?' },
      options: [
        { key: 'product-manager', labels: { en: 'Product manager', de: 'Produktmanagerin' } },
        { key: 'founder', labels: { en: 'Founder', de: 'Gründerin' } },
      ],
    })
    expect(questions[1]).toEqual({ key: 'goal', kind: 'text', required: false, labels: { en: 'What would you ask?' }, options: [] })
    expect(skipped).toHaveLength(3)
  })

  it('never more than 5, and a question without a kind or English words is left out', () => {
    const many = Array.from({ length: 7 }, (_, i) => ({ ...GOAL, key: `q${i}` }))
    expect(publishableQuestions(many).questions).toHaveLength(5)
    expect(
      publishableQuestions([
        { ...GOAL, kind: undefined },
        { ...GOAL, label: [{ language: 'de', text: 'Frage' }] },
      ]).questions,
    ).toEqual([])
  })

  it('the form in a language reads its words, English where one is missing', () => {
    const { questions } = publishableQuestions([ROLE, TOOLS])
    expect(questionsIn(questions, 'de')).toEqual([
      {
        key: 'role',
        kind: 'one',
        required: true,
        label: 'Was ist Ihre Rolle?',
        options: [
          { key: 'product-manager', label: 'Produktmanagerin' },
          { key: 'founder', label: 'Gründerin' },
        ],
      },
      {
        key: 'tools',
        kind: 'many',
        required: false,
        label: 'Which tools do you use?',
        options: [
          { key: 'slack', label: 'Slack' },
          { key: 'notion', label: 'Notion' },
          { key: 'jira', label: 'Jira' },
        ],
      },
    ])
  })
})

describe('the form’s answers', () => {
  const form: FormQuestion[] = questionsIn(publishableQuestions([ROLE, TOOLS, GOAL]).questions, 'en')
  const data = (entries: [string, string][]) => {
    const formData = new FormData()
    for (const [name, value] of entries) formData.append(name, value)
    return formData
  }

  it('reads each question’s controls by name', () => {
    const given = readAnswers(
      data([
        [answerFieldName('role'), 'founder'],
        [answerFieldName('tools'), 'jira'],
        [answerFieldName('tools'), 'slack'],
        [answerFieldName('goal'), ' Churn '],
        ['name', 'Ada'],
      ]),
      form,
    )
    expect(given).toEqual({ role: ['founder'], tools: ['jira', 'slack'], goal: [' Churn '] })
  })

  it('keeps only the questions’ options, in their order, and trims a short answer', () => {
    expect(validateAnswers(form, { role: ['founder'], tools: ['jira', 'teams', 'slack', 'jira'], goal: ['  Churn  '] })).toEqual({
      answers: { role: 'founder', tools: ['slack', 'jira'], goal: 'Churn' },
      errors: {},
    })
    expect(validateAnswers(form, { role: ['ceo', 'founder'], tools: [], goal: [''] })).toEqual({ answers: { role: 'founder' }, errors: {} })
  })

  it('says what a required, too long or control-laden answer needs', () => {
    expect(validateAnswers(form, {}).errors).toEqual({ role: 'required' })
    expect(validateAnswers(form, { role: ['founder'], goal: ['🙂'.repeat(200)] }).errors).toEqual({})
    expect(validateAnswers(form, { role: ['founder'], goal: ['x'.repeat(201)] }).errors).toEqual({ goal: 'too_long' })
    expect(validateAnswers(form, { role: ['founder'], goal: ['a\u202eb'] }).errors).toEqual({ goal: 'invalid_characters' })
    expect(validateAnswers([{ ...form[2]!, required: true }], { goal: [' \u3000 '] }).errors).toEqual({ goal: 'required' })
    const copy = {
      errorRequired: 'Please enter {field}.',
      errorTooLong: 'Please shorten {field} to at most {n} characters.',
      errorInvalidCharacters: 'Please remove the unsupported characters from {field}.',
      errorChoose: 'Please choose an answer.',
      answerInSentence: 'your answer',
    }
    expect(answerErrorMessage({ kind: 'one' }, 'required', copy)).toBe('Please choose an answer.')
    expect(answerErrorMessage({ kind: 'text' }, 'required', copy)).toBe('Please enter your answer.')
    expect(answerErrorMessage({ kind: 'text' }, 'too_long', copy)).toBe('Please shorten your answer to at most 200 characters.')
  })

  it.each(BLANK_TEXTS)('takes a short answer of %s as no answer: required when the question is', (_, text) => {
    expect(validateAnswers(form, { role: ['founder'], goal: [text] })).toEqual({ answers: { role: 'founder' }, errors: {} })
    expect(validateAnswers([{ ...form[2]!, required: true }], { goal: [text] })).toEqual({ answers: {}, errors: { goal: 'required' } })
  })

  it('analytics sees the options chosen, never a short answer', () => {
    const { answers } = validateAnswers(form, { role: ['founder'], tools: ['slack'], goal: ['I am Ada Lovelace, ada@example.com'] })
    const properties = waitlistJoinProperties({ email: 'ada@example.com', company: 'Acme' }, answerProperties(form, answers))
    expect(properties).toEqual({ answer_role: 'founder', answer_tools: ['slack'], has_company: true, email_domain: 'example.com' })
    expect(JSON.stringify(properties)).not.toContain('Lovelace')
  })
})
