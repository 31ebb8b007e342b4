import { describe, expect, it } from 'vitest'
import { campaignKeyProblem, campaignTagProblem, matchCampaign, sameTagsProblem, type CampaignTags } from '@/sanity/variants/campaign-rules'
import { campaignTag } from '@/lib/variants/campaign-tag'
import { campaignAudiences, campaignVersionsFor, type LiveCampaign } from '@/sanity/variants/live-campaigns'

const linkedin: CampaignTags = { key: 'pm-linkedin', utmCampaign: 'pm-launch', utmSource: 'linkedin' }
const anyPm: CampaignTags = { key: 'pm-any', utmCampaign: 'pm-launch', utmSource: null }
const founders: CampaignTags = { key: 'founders', utmCampaign: 'Founders Weekly', utmSource: null }
const campaigns = [anyPm, linkedin, founders]

const match = (query: string) => matchCampaign(campaigns, new URLSearchParams(query))?.key ?? null

describe('the campaign a request names', () => {
  it.each([
    ['utm_campaign=pm-launch&utm_source=linkedin', 'pm-linkedin'],
    // The source-specific campaign wins wherever it sits in the list.
    ['utm_source=linkedin&utm_campaign=pm-launch', 'pm-linkedin'],
    ['utm_campaign=pm-launch&utm_source=newsletter', 'pm-any'],
    ['utm_campaign=pm-launch', 'pm-any'],
    // Case as written, as the sign-up records it.
    ['utm_campaign=PM-launch', null],
    ['utm_campaign=pm-launch&utm_source=LinkedIn', 'pm-any'],
    ['utm_campaign=Founders%20Weekly', 'founders'],
    ['utm_campaign=founders+weekly', null],
    // Trimmed, and invisible characters dropped, as the site records them.
    ['utm_campaign=%20pm-launch%20', 'pm-any'],
    ['utm_campaign=pm-%E2%80%8Blaunch', 'pm-any'],
    ['utm_campaign=pm-launch%E2%80%AE&utm_source=linked%00in', 'pm-linkedin'],
    // The first of a repeated tag counts, as the sign-up records it.
    ['utm_campaign=pm-launch&utm_campaign=Founders%20Weekly', 'pm-any'],
    ['utm_campaign=&utm_source=linkedin', null],
    ['utm_source=linkedin', null],
    ['', null],
    ['utm_campaign=%F0%9F', null],
    [`utm_campaign=${'x'.repeat(10_000)}`, null],
  ])('%s → %s', (query, key) => {
    expect(match(query)).toBe(key)
  })

  it('matches a 100-character campaign from a longer tag exactly as the sign-up records it', () => {
    const long = { key: 'long', utmCampaign: 'a'.repeat(100), utmSource: null }
    const query = new URLSearchParams({ utm_campaign: 'a'.repeat(150) })
    expect(campaignTag(query.get('utm_campaign'))).toBe(long.utmCampaign)
    expect(matchCampaign([long], query)).toBe(long)
  })
})

describe('the Studio’s rules for a campaign', () => {
  it.each([
    ['pm-linkedin', null],
    ['', 'Give the campaign a key'],
    ['PM', 'Use 2 to 40 lowercase letters, digits and hyphens, starting with a letter'],
    ['a', 'Use 2 to 40 lowercase letters, digits and hyphens, starting with a letter'],
    ['9-lives', 'Use 2 to 40 lowercase letters, digits and hyphens, starting with a letter'],
  ])('key %j', (key, problem) => {
    expect(campaignKeyProblem(key || undefined)).toBe(problem)
  })

  it('takes a tag only as the site reads it', () => {
    expect(campaignTagProblem('pm-launch', 'utm_campaign', true)).toBeNull()
    expect(campaignTagProblem('Founders Weekly', 'utm_campaign', true)).toBeNull()
    expect(campaignTagProblem(undefined, 'utm_campaign', true)).toMatch(/Give the utm_campaign/)
    expect(campaignTagProblem(undefined, 'utm_source', false)).toBeNull()
    for (const odd of [' pm', 'pm ', 'pm\u200b', 'a'.repeat(101), '\u202epm'])
      expect(campaignTagProblem(odd, 'utm_campaign', true)).toMatch(/reads utm_campaign/)
  })

  it('refuses two campaigns answering the same tags on one page', () => {
    expect(sameTagsProblem({ utmCampaign: 'pm-launch', utmSource: 'linkedin' }, campaigns)).toMatch(/"pm-linkedin" already answers/)
    expect(sameTagsProblem({ utmCampaign: 'pm-launch', utmSource: null }, campaigns)).toMatch(/"pm-any"/)
    expect(sameTagsProblem({ utmCampaign: 'pm-launch', utmSource: 'newsletter' }, campaigns)).toBeNull()
  })
})

describe('whom a campaign version was shown to (the console’s audiences)', () => {
  const hero = (tags: CampaignTags): LiveCampaign => ({ ...tags, sectionKey: 'hero' })
  const audiences = (byPath: Record<string, LiveCampaign[]>) => campaignAudiences(new Map(Object.entries(byPath)))

  it('a version naming no source is shown to every source but those whose own version replaces the same section', () => {
    expect(audiences({ '/': [hero(anyPm), hero(linkedin)], '/de': [hero(anyPm)] })).toEqual([
      { campaign: 'pm-any', utmCampaign: 'pm-launch', utmSource: null, path: '/', otherSources: ['linkedin'] },
      { campaign: 'pm-linkedin', utmCampaign: 'pm-launch', utmSource: 'linkedin', path: '/', otherSources: [] },
      { campaign: 'pm-any', utmCampaign: 'pm-launch', utmSource: null, path: '/de', otherSources: [] },
    ])
  })

  it('a sourced version on another section takes nobody from it: the visitor sees both', () => {
    const features = { ...linkedin, sectionKey: 'features' }
    expect(audiences({ '/': [hero(anyPm), features] }).map((audience) => [audience.campaign, audience.otherSources])).toEqual([
      ['pm-any', []],
      ['pm-linkedin', []],
    ])
  })

  it('a version with the tags of an earlier one on the same section is never shown, so it has no audience', () => {
    const twin = { ...anyPm, key: 'pm-twin' }
    expect(audiences({ '/': [hero(anyPm), hero(twin)] }).map((audience) => audience.campaign)).toEqual(['pm-any'])
    // The same twin on another section is shown there.
    expect(audiences({ '/': [hero(anyPm), { ...twin, sectionKey: 'faq' }] }).map((audience) => audience.campaign)).toEqual(['pm-any', 'pm-twin'])
  })

  it('agrees with what a request is shown, for every combination of tags', () => {
    const versions = [hero(anyPm), hero(linkedin), hero(founders), { ...founders, key: 'founders-faq', sectionKey: 'faq' }]
    const list = audiences({ '/': versions })
    for (const campaign of ['pm-launch', 'Founders Weekly', 'other']) {
      for (const source of [null, 'linkedin', 'newsletter']) {
        const query = new URLSearchParams({ utm_campaign: campaign, ...(source ? { utm_source: source } : {}) })
        const shown = campaignVersionsFor(versions, query).map((version) => version.key)
        const counted = list
          .filter((a) => a.utmCampaign === campaign && (a.utmSource === null ? source === null || !a.otherSources.includes(source) : a.utmSource === source))
          .map((a) => a.campaign)
        expect(counted.sort(), query.toString()).toEqual(shown.sort())
      }
    }
  })
})
