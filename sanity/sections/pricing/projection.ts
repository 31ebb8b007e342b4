export const pricingProjection = /* groq */ `_type == "pricingSection" => {
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
}`
