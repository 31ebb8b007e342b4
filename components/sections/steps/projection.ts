export const stepsProjection = /* groq */ `_type == "stepsSection" => {eyebrow, title, subtitle, steps[]{_key, title, text}}`
