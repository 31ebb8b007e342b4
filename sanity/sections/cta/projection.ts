import { testimonialFragment } from '../testimonial/projection'

export const ctaProjection = /* groq */ `_type == "ctaSection" => {title, subtitle, primaryCtaLabel, secondaryCtaLabel, testimonial${testimonialFragment}}`
