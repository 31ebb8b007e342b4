export const testimonialFragment = /* groq */ `{quote, author, role, isSample}`
export const testimonialProjection = /* groq */ `_type == "testimonialSection" => ${testimonialFragment}`
