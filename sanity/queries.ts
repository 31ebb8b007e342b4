import { defineQuery } from 'groq'

// Every GROQ query the site runs. The same strings run against Sanity's Content Lake and,
// locally, through groq-js over the seed dataset, so they must not rely on perspectives:
// singletons are read by their fixed _id, lists exclude drafts explicitly.

export const siteSettingsQuery = defineQuery(`*[_type == "siteSettings" && _id == "siteSettings"][0]{
  siteName,
  usageClaim,
  appUrl,
  navigation{
    links[]{_key, label, kind, path, url, email},
    resourcesLabel,
    resources[]{_key, label, kind, path, url, email},
    tryDemoLabel,
    signInLabel,
    startTrialLabel,
    menuLabel
  },
  contact{generalEmail, supportEmail, location, twitterUrl, linkedinUrl},
  footer{
    blurb,
    columns[]{_key, title, links[]{_key, label, kind, path, url, email}},
    legalLinks[]{_key, label, kind, path, url, email},
    badges,
    statusText,
    copyright,
    socialHeading
  },
  consent{title, text, acceptLabel, declineLabel, browserRefusesNote, settingsLabel},
  labels{skipToContent, sample, planned, closeMenu, mainNavigation},
  productWidgetScriptUrl,
  demoWidget{
    title,
    badge,
    note,
    closeLabel,
    chooseReplyLabel,
    restartLabel,
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

export const landingPageQuery = defineQuery(`*[_type == "landingPage" && _id == "landingPage"][0]{
  hero{badge, title, titleHighlight, subtitle, primaryCtaLabel, secondaryCtaLabel, highlights, socialProof},
  logos{title, items[]{_key, name, isSample}},
  features{eyebrow, title, subtitle, items[]{_key, icon, title, description}},
  audiences{eyebrow, title, subtitle, items[]{_key, icon, title, description}},
  pricing{
    eyebrow,
    title,
    subtitle,
    footnote,
    ctaLabel,
    labels{free, perMonth, perYear, trial, noCreditCard, cancelAnytime},
    "tiers": tiers[]->{
      _id,
      name,
      description,
      price,
      currency,
      billingInterval,
      trialDays,
      noCreditCard,
      cancelAnytime,
      insightsPerMonth,
      insightsLabel,
      overageNote,
      features,
      availability,
      ctaLabel,
      highlighted,
      highlightLabel
    }
  },
  faq{title, subtitle, items[]{_key, question, answer}},
  cta{title, subtitle, primaryCtaLabel, secondaryCtaLabel, testimonial{quote, author, role, isSample}},
  seo{title, description, image}
}`)

export const aboutPageQuery = defineQuery(`*[_type == "aboutPage" && _id == "aboutPage"][0]{
  hero{eyebrow, title, subtitle},
  mission{title, body},
  vision{title, body},
  values{title, subtitle, items[]{_key, icon, title, description}},
  team{title, body},
  contact{title, subtitle, generalEmailLabel, supportEmailLabel, locationLabel},
  cta{title, subtitle, buttonLabel},
  seo{title, description, image}
}`)

export const waitlistPageQuery = defineQuery(`*[_type == "waitlistPage" && _id == "waitlistPage"][0]{
  backLabel,
  badge,
  title,
  intro,
  benefitsTitle,
  benefits,
  form{title, nameLabel, namePlaceholder, companyLabel, companyPlaceholder, emailLabel, emailPlaceholder, lengthHint, submitLabel, submittingLabel, privacyNote, errorRequired, errorTooLong, errorInvalidEmail, errorInvalidCharacters, nameInSentence, emailInSentence, companyInSentence},
  confirmation{title, text, nextStepsTitle, nextSteps, backLabel},
  messages{success, duplicate, backendError, failure, rateLimited, automated},
  seo{title, description, image}
}`)

export const notFoundPageQuery = defineQuery(`*[_type == "notFoundPage" && _id == "notFoundPage"][0]{title, text, homeLabel}`)

/** The demo conversation the landing page's Try Demo buttons open (fetched on its own, for the widget). */
export const demoConversationQuery = defineQuery(`*[_type == "landingPage" && _id == "landingPage"][0].demo->{
  _id,
  context,
  opening,
  steps[]{_key, replies[]{_key, text, followUp}, followUp, quoted},
  insight{channel, summary, tags, sentiment, action}
}`)
