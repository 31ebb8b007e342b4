export const statementProjection = /* groq */ `_type == "statementSection" => {title, body}`
