import { IMAGE_PROJECTION } from '../../fragments'

export const cardGridProjection = /* groq */ `_type == "cardGridSection" => {eyebrow, title, subtitle, items[]{_key, icon, title, description, "image": image${IMAGE_PROJECTION}}, layout, columns, tinted}`
