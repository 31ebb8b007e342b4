export const heroProjection = /* groq */ `_type == "heroSection" => {badge, title, titleHighlight, subtitle, primaryCtaLabel, secondaryCtaLabel, highlights, socialProof}`
