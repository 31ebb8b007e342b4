import { DEFAULT_LANGUAGE } from '../../../lib/i18n/languages'

/** Links to pages carry the page's current path, so a renamed slug never breaks them. */
export const richTextBodyFragment = /* groq */ `body[]{
  ...,
  _type == "block" => {markDefs[]{..., _type == "pageLink" => {"slug": page->slug.current, "language": coalesce(page->language, "${DEFAULT_LANGUAGE}")}}},
  _type == "image" => {alt, caption, asset, hotspot, crop, "url": asset->url}
}`

export const richTextProjection = /* groq */ `_type == "richTextSection" => {${richTextBodyFragment}}`
