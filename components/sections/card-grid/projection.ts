export const cardGridProjection = /* groq */ `_type == "cardGridSection" => {eyebrow, title, subtitle, items[]{_key, icon, title, description}, columns, tinted}`
