import { IMAGE_PROJECTION } from '../../fragments'

export const logoStripProjection = /* groq */ `_type == "logoStripSection" => {title, items[]{_key, name, isSample, "logo": logo${IMAGE_PROJECTION}}}`
