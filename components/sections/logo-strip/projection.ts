export const logoStripProjection = /* groq */ `_type == "logoStripSection" => {title, items[]{_key, name, isSample}}`
