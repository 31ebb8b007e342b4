import { IMAGE_PROJECTION } from '../../fragments'

export const statementProjection = /* groq */ `_type == "statementSection" => {title, body, "image": image${IMAGE_PROJECTION}}`
