import { IMAGE_PROJECTION } from '../../fragments'

export const testimonialFragment = /* groq */ `{quote, author, role, isSample, "photo": photo${IMAGE_PROJECTION}}`
export const testimonialProjection = /* groq */ `_type == "testimonialSection" => ${testimonialFragment}`
