export const pageHeaderProjection = /* groq */ `_type == "pageHeaderSection" => {eyebrow, title, subtitle, lastUpdated}`
