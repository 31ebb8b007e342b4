import { IMAGE_PROJECTION } from '../../fragments'

export const stepsProjection = /* groq */ `_type == "stepsSection" => {eyebrow, title, subtitle, steps[]{_key, title, text, "image": image${IMAGE_PROJECTION}}}`
