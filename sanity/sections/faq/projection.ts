export const faqProjection = /* groq */ `_type == "faqSection" => {title, subtitle, items[]{_key, question, answer}}`
