import { defineQuery } from 'groq'
import { DEFAULT_LANGUAGE } from '../lib/i18n/languages'
import { demoConversationProjection } from './demo/projection'
import { sectionsProjection } from './sections/projection'
import { IMAGE_PROJECTION, REDIRECT_DESTINATION_PATH, SITE_LANGUAGES } from './fragments'
import { richTextBodyFragment } from './sections/rich-text/projection'

// Every GROQ query the site runs. The same strings run against Sanity's Content Lake and,
// locally, through groq-js over the seed dataset, so they must not rely on perspectives:
// lists and fixed pages exclude drafts explicitly. Every translated document is read in one
// language ($language): a fixed page is the one document of its type in it, a page or post the
// one with its slug in it (lib/i18n/languages.ts).

const seoProjection = /* groq */ `seo{title, description, image, noindex}`

const published = /* groq */ `!(_id in path("drafts.**"))`

/** A document's language: English for one written before the site had languages (no language field). */
const languageOf = /* groq */ `coalesce(language, "${DEFAULT_LANGUAGE}")`

/** A link as every menu reads it; a page by reference resolves to its current slug (null when unpublished) and its language. */
const linkProjection = /* groq */ `{_key, label, kind, path, url, email, "pageSlug": page->slug.current, "pageLanguage": coalesce(page->language, "${DEFAULT_LANGUAGE}")}`

/** The published document of a fixed page in the language asked for. */
const fixedPage = <const T extends string>(type: T) => /* groq */ `*[_type == "${type}" && ${languageOf} == $language && ${published}][0]` as const

/** The languages a fixed page is published in: its alternates (hreflang) and the switcher's targets. */
const fixedPageLanguages = /* groq */ `"languages": *[_type == ^._type && ${published}]{"code": ${languageOf}}.code`

/**
 * A page's or post's published translations, linked by @sanity/document-internationalization's
 * metadata: each one's language and slug, for its alternates (hreflang) and the switcher.
 */
const translationsProjection = /* groq */ `"translations": *[_type == "translation.metadata" && ^._id in translations[].value._ref][0].translations[defined(value->slug.current)]{language, "slug": value->slug.current}`

export const siteSettingsQuery = defineQuery(`${fixedPage('siteSettings')}{
  siteName,
  usageClaim,
  appUrl,
  announcement{enabled, text, dismissible, link${linkProjection}},
  navigation{
    links[]${linkProjection},
    resourcesLabel,
    resources[]${linkProjection},
    tryDemoLabel,
    signInLabel,
    startTrialLabel,
    menuLabel
  },
  contact{generalEmail, supportEmail, location, twitterUrl, linkedinUrl},
  footer{
    blurb,
    columns[]{_key, title, links[]${linkProjection}},
    legalLinks[]${linkProjection},
    badges,
    statusText,
    copyright,
    socialHeading
  },
  consent{title, text, acceptLabel, declineLabel, browserRefusesNote, settingsLabel, policyLink${linkProjection}},
  labels{skipToContent, sample, planned, closeMenu, closeAnnouncement, mainNavigation, lastUpdated, tableOfContents, language},
  search{title, label, placeholder, buttonLabel, emptyText, resultCountOne, resultCountMany, noResults, noResultsText},
  productWidgetScriptUrl,
  demoWidget{
    title,
    badge,
    note,
    closeLabel,
    chooseReplyLabel,
    restartLabel,
    joinWaitlistLabel,
    interviewerLabel,
    visitorLabel,
    typingLabel,
    insightTitle,
    quoteLabel,
    actionLabel,
    sentiments{positive, neutral, mixed, negative}
  },
  seo{title, description, image}
}`)

export const landingPageQuery = defineQuery(`${fixedPage('landingPage')}{
  title,
  ${fixedPageLanguages},
  ${sectionsProjection},
  ${seoProjection}
}`)

export const aboutPageQuery = defineQuery(`${fixedPage('aboutPage')}{
  title,
  ${fixedPageLanguages},
  ${sectionsProjection},
  ${seoProjection}
}`)

/** A page by its slug (drafts overlay it in a draft preview, through the client's perspective). */
export const pageQuery = defineQuery(`*[_type == "page" && slug.current == $slug && ${languageOf} == $language && ${published}][0]{
  _id,
  title,
  ${translationsProjection},
  "slug": slug.current,
  ${sectionsProjection},
  ${seoProjection}
}`)

/** Every published page: prerendered at build, listed in the sitemap unless hidden from search engines. */
export const pageListQuery = defineQuery(`*[_type == "page" && defined(slug.current) && ${published}] | order(slug.current asc){
  "slug": slug.current,
  "language": ${languageOf},
  ${translationsProjection},
  title,
  "noindex": seo.noindex == true,
  _updatedAt
}`)

/**
 * Every published redirect, matched against the path in code (sanity/content): one cached query for
 * all addresses, so a request for a random address costs no query and no cache entry of its own.
 */
export const redirectsQuery = defineQuery(`*[_type == "redirect" && defined(source) && ${published}]{
  source,
  permanent,
  "kind": destination.kind,
  "path": ${REDIRECT_DESTINATION_PATH},
  "url": destination.url
}`)

/**
 * The pages and posts that have moved, with their old slugs: each old address redirects to the
 * current one (sanity/content/addresses.ts). The most recently published first, so when two claimed
 * the same old address, the later move has it.
 */
export const movedAddressesQuery =
  defineQuery(`*[_type in ["page", "post"] && count(previousSlugs) > 0 && defined(slug.current) && ${published}] | order(_updatedAt desc){
  _type,
  "slug": slug.current,
  "language": ${languageOf},
  previousSlugs
}`)

/**
 * The questions at sign-up (one document, "Questions at sign-up"), with their words in every
 * language. The waitlist page reads them to draw the form, the publish webhook to copy them to the
 * database; both keep only what sanity/questions/rules.ts publishableQuestions keeps.
 */
const publishedQuestions = /* groq */ `coalesce(*[_type == "waitlistQuestions" && ${published}][0].questions[]{
  key,
  kind,
  required,
  "label": label[]{language, text},
  "options": options[]{key, "label": label[]{language, text}}
}, [])`

export const publishedQuestionsQuery = defineQuery(publishedQuestions)

/**
 * The reward ladder (one document, "Rewards for bringing friends"), with its words in every
 * language. The waitlist page and the e-mails read it to show progress and rewards, the publish
 * webhook to copy the numbers and kinds to the database; each keeps only what
 * sanity/rewards/rules.ts publishableRungs keeps.
 */
const publishedRewards = /* groq */ `coalesce(*[_type == "waitlistRewards" && ${published}][0].rungs[]{
  key,
  threshold,
  kind,
  places,
  approval,
  "title": title[]{language, text},
  "description": description[]{language, text}
}, [])`

export const publishedRewardsQuery = defineQuery(publishedRewards)

/**
 * The research tasks (one document, "Research tasks"), with their words in every language. The own
 * page draws them, the publish webhook copies them to the database; both keep only what
 * sanity/tasks/rules.ts publishableTasks keeps.
 */
const publishedTasks = /* groq */ `coalesce(*[_type == "waitlistTasks" && ${published}][0].tasks[]{
  key,
  places,
  "title": title[]{language, text},
  "questions": questions[]{key, kind, "label": label[]{language, text}, "options": options[]{key, "label": label[]{language, text}}}
}, [])`

export const publishedTasksQuery = defineQuery(publishedTasks)

export const waitlistPageQuery = defineQuery(`${fixedPage('waitlistPage')}{
  "questions": ${publishedQuestions},
  "rewards": ${publishedRewards},
  "tasks": ${publishedTasks},
  ${fixedPageLanguages},
  backLabel,
  badge,
  title,
  intro,
  benefitsTitle,
  benefits,
  form{title, nameLabel, namePlaceholder, companyLabel, companyPlaceholder, emailLabel, emailPlaceholder, lengthHint, submitLabel, submittingLabel, privacyNote, "privacyLink": privacyLink${linkProjection}, errorRequired, errorTooLong, errorInvalidEmail, errorInvalidCharacters, nameInSentence, emailInSentence, companyInSentence, errorChoose, answerInSentence, updatesLabel},
  confirmation{title, text, nextStepsTitle, nextSteps, backLabel},
  messages{success, duplicate, backendError, failure, rateLimited, automated, questionsChanged},
  confirmPage{pageTitle, checkingTitle, checkingText, readyTitle, readyText, confirmLabel, confirmingLabel, noScriptText, confirmedTitle, confirmedText, alreadyTitle, alreadyText, invitedTitle, invitedText, openAppLabel, openingAppLabel, joinedTitle, joinedText, signInLabel, expiredTitle, expiredText, invalidTitle, invalidText, unreachableTitle, unreachableText, retryLabel, resendTitle, resendEmailLabel, resendLabel, resendSendingLabel, resendDone, rejoinText, rejoinLabel, backLabel},
  placePanel{title, placeText, referralsText, referralTitle, referralText, linkLabel, copyLabel, copiedLabel, shareLabel, shareText, shareSubject, emailShareLabel, whatsappLabel, linkedinLabel, xLabel, shareImageNamed, qrLabel, dataTitle, dataText, updatesLabel, updatesSaved, downloadLabel, deleteLabel, deleteConfirmText, deleteConfirmLabel, cancelLabel, deletedTitle, deletedText, unavailableText, rewardsTitle, rewardNextOne, rewardNextOther, rewardEarnedLabel, rewardHeldLabel},
  tasksPanel{title, text, placesLabel, submitLabel, submittingLabel, doneText, completedLabel, revokedLabel, fewWordsError, closedText, boardTitle, boardText, boardJoinLabel, boardLeaveLabel, nicknameLabel, nicknameHint, boardOnText, boardHiddenText, nicknameError, boardLinkLabel},
  leaderboardPage{title, intro, rankHeader, nameHeader, referralsHeader, emptyText, unavailableText, joinLabel},
  unsubscribePage{pageTitle, title, text, buttonLabel, sendingLabel, doneTitle, doneText, failedText, noScriptText, backLabel, updatesTitle, updatesText, updatesButtonLabel, updatesSendingLabel, updatesDoneTitle, updatesDoneText},
  email{senderName, subject, previewText, greeting, anonymousGreeting, body, buttonLabel, linkHint, expiryNote, footer, importSubject, importPreviewText, importBody, importFooter, accessSubject, accessPreviewText, accessBody, accessButtonLabel, accessExpiryNote, accessFooter, invitationSubject, invitationPreviewText, invitationBody, invitationButtonLabel, invitationExpiryNote, invitationFooter, reminderSubject, reminderPreviewText, reminderBody, unsubscribeLabel, updateSubject, updatePreviewText, updateGreeting, updateIntro, updateButtonLabel, updateFooter, updateUnsubscribeLabel, erasureSubject, erasurePreviewText, erasureBody, erasureFooter, shareTitle, shareText, shareSubject, shareEmailLabel, shareWhatsappLabel, shareLinkedinLabel, shareXLabel, firstRewardOne, firstRewardOther, rewardSubject, rewardPreviewText, rewardBody, rewardHeldBody, rewardFooter},
  ${seoProjection}
}`)

/**
 * A published post by its _id, as the publish webhook reads it to decide whether to e-mail it
 * (components/waitlist/updates.ts): null when it is not published (unpublished, deleted, a draft).
 */
export const postBroadcastQuery = defineQuery(`*[_type == "post" && _id == $id && ${published}][0]{
  _id,
  "language": ${languageOf},
  title,
  "slug": slug.current,
  excerpt,
  emailToSubscribers,
  isSample
}`)

/** The words of /llms.txt in a language (Site settings → Search → For AI assistants). */
export const llmsQuery = defineQuery(`${fixedPage('siteSettings')}.llms{summary, pagesHeading, pricingHeading, waitlistHeading}`)

export const notFoundPageQuery = defineQuery(`${fixedPage('notFoundPage')}{title, text, homeLabel}`)

/** The demo conversation the landing page's Try Demo buttons open (fetched on its own, for the widget). */
export const demoConversationQuery = defineQuery(`${fixedPage('landingPage')}.demo->${demoConversationProjection}`)

export const blogPageQuery = defineQuery(`${fixedPage('blogPage')}{
  title,
  ${fixedPageLanguages},
  intro,
  changelogTitle,
  changelogIntro,
  labels{readingTime, byline, categories, allPosts, newer, older, pageOf, previous, next, backToBlog, backToChangelog, changelogLink, feed, empty},
  ${seoProjection},
  changelogSeo{title, description, image, noindex}
}`)

/** What a list, a feed item's header and the proxy need of a post: everything but its text. */
const postSummaryProjection = /* groq */ `
  _id,
  _updatedAt,
  "language": ${languageOf},
  ${translationsProjection},
  title,
  "slug": slug.current,
  publishedAt,
  excerpt,
  "kind": coalesce(kind, "article"),
  "isSample": isSample == true,
  "noindex": seo.noindex == true,
  "categories": categories[]->{title, "slug": slug.current},
  "authors": authors[]->{name, role, "isSample": isSample == true, picture${IMAGE_PROJECTION}}
`

const publishedPosts = /* groq */ `*[_type == "post" && defined(slug.current) && defined(publishedAt) && ${published}]`

/**
 * Every published post, newest first, without their text: one cached answer serves every list,
 * page of a list, category, previous/next link and the sitemap.
 */
export const postSummariesQuery = defineQuery(`${publishedPosts} | order(publishedAt desc){${postSummaryProjection}}`)

/** One post with its text (drafts overlay it in a draft preview, through the client's perspective). */
export const postQuery = defineQuery(`*[_type == "post" && slug.current == $slug && ${languageOf} == $language && ${published}][0]{
  ${postSummaryProjection},
  ${richTextBodyFragment},
  "plainText": pt::text(body),
  ${seoProjection}
}`)

/** How many posts a feed carries (GROQ slices take constants, not parameters). */
export const FEED_SIZE = 20

/** The newest posts of one kind with their text, for its feed. */
export const postFeedQuery =
  defineQuery(`${publishedPosts}[${languageOf} == $language && coalesce(kind, "article") in $kinds] | order(publishedAt desc)[0...${FEED_SIZE}]{
  ${postSummaryProjection},
  ${richTextBodyFragment}
}`)

/** Every published category, by name (sanity/content keeps those with posts to show). */
export const categoriesQuery = defineQuery(`*[_type == "category" && defined(slug.current) && ${published}] | order(title asc){
  title,
  "language": ${languageOf},
  ${translationsProjection},
  "slug": slug.current,
  description
}`)

/** The languages the site speaks (the Languages document), for the proxy, the pages and the switcher. */
export const siteLanguagesQuery = defineQuery(`${SITE_LANGUAGES}`)

/** Which fixed pages are published in which language: their addresses answer there (the proxy, sanity/content/addresses.ts). */
export const fixedPagesQuery = defineQuery(
  `*[_type in ["landingPage", "aboutPage", "waitlistPage", "blogPage", "siteSettings"] && ${published}]{_type, "language": ${languageOf}}`,
)

/**
 * The words of every published post in one language, for the site search's index
 * (components/search): the text of its paragraphs and of its code blocks, as plain text.
 */
export const postTextsQuery = defineQuery(`${publishedPosts}[${languageOf} == $language]{_id, "text": pt::text(body), "code": body[_type == "code"].code}`)

/**
 * Every published running experiment (one document for every language), read by
 * components/variants/running.ts for both of its readers: the proxy, which assigns participants
 * (its variants' keys and shares, and the published pages it varies in every language, the English
 * page it names and that page's translations, with each page's section keys, so an experiment
 * whose section was deleted is left out before anyone is rewritten to it), and the database's set
 * of variant keys a sign-up may record (components/variants/sync.ts).
 */
/**
 * The published page a document's `target` names (an experiment's, a campaign version's), in every
 * language it is translated to, with its sections' keys.
 */
const targetPagesProjection = /* groq */ `"pages": *[(_id == ^.target.page._ref || _id in *[_type == "translation.metadata" && ^.^.target.page._ref in translations[].value._ref][0].translations[].value._ref) && _type in ["landingPage", "aboutPage", "page"] && ${published}]{
    _type,
    "language": ${languageOf},
    "slug": slug.current,
    "sectionKeys": coalesce(sections[]._key, [])
  }`

export const runningExperimentsQuery = defineQuery(`*[_type == "experiment" && state == "running" && ${published}]{
  "key": key.current,
  "sectionKey": target.sectionKey,
  "variants": variants[]{key, share, "languages": coalesce(sections[count(sections) > 0].language, [])},
  ${targetPagesProjection}
}`)

/** The published campaign versions as the proxy matches them (sanity/variants/live-campaigns.ts): their tags and the pages they change. */
export const liveCampaignsQuery = defineQuery(`*[_type == "campaign" && ${published}]{
  "key": key.current,
  utmCampaign,
  "utmSource": coalesce(utmSource, null),
  "sectionKey": target.sectionKey,
  "languages": coalesce(sections[count(sections) > 0].language, []),
  ${targetPagesProjection}
}`)

/** One campaign version as its page draws it: its section in one language, projected like the page's. */
export const campaignQuery = defineQuery(`*[_type == "campaign" && key.current == $key && ${published}][0]{
  "key": key.current,
  "sectionKey": target.sectionKey,
  "version": sections[language == $language][0]{${sectionsProjection}}
}`)

/** One experiment as a variant page draws it: its variants' sections in one language, projected like the page's. */
export const experimentQuery = defineQuery(`*[_type == "experiment" && key.current == $key && ${published}][0]{
  "key": key.current,
  state,
  "sectionKey": target.sectionKey,
  "variants": variants[]{
    key,
    "section": sections[language == $language][0]{${sectionsProjection}}
  }
}`)
