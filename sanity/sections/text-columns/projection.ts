export const textColumnsProjection = /* groq */ `_type == "textColumnsSection" => {columns[]{_key, title, body}}`
