import 'server-only'
import { cache } from 'react'
import { aboutPageQuery, demoConversationQuery, landingPageQuery, notFoundPageQuery, siteSettingsQuery, waitlistPageQuery } from '@/sanity/queries'
import { sanityFetch } from './fetch'
import { toAboutPage, toDemoConversation, toLandingPage, toNotFoundPage, toSiteSettings, toWaitlistPage } from './reshape'

// What pages call. Each getter names the document types it depends on as cache tags, so a
// publish revalidates exactly the pages that show the change.

const getRawSettings = cache(() => sanityFetch({ query: siteSettingsQuery, tags: ['siteSettings'], label: 'site settings' }))

export const getSiteSettings = cache(async () => toSiteSettings(await getRawSettings()))

const usageClaim = async () => (await getRawSettings()).usageClaim

export const getLandingPage = cache(async () =>
  toLandingPage(await sanityFetch({ query: landingPageQuery, tags: ['landingPage', 'pricingTier'], label: 'landing page' }), await usageClaim()),
)

export const getAboutPage = cache(async () =>
  toAboutPage(await sanityFetch({ query: aboutPageQuery, tags: ['aboutPage'], label: 'about page' }), await usageClaim()),
)

export const getWaitlistPage = cache(async () =>
  toWaitlistPage(await sanityFetch({ query: waitlistPageQuery, tags: ['waitlistPage'], label: 'waitlist page' }), await usageClaim()),
)

export const getNotFoundPage = cache(async () =>
  toNotFoundPage(await sanityFetch({ query: notFoundPageQuery, tags: ['notFoundPage'], label: 'not-found page' })),
)

/** The conversation the landing page's demo field points at (for the demo widget). */
export const getDemoConversation = cache(async () =>
  toDemoConversation(await sanityFetch({ query: demoConversationQuery, tags: ['landingPage', 'demoConversation'], label: 'demo conversation' })),
)

export type * from './types'
