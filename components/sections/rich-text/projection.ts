/** Links to pages carry the page's current path, so a renamed slug never breaks them. */
export const richTextBodyFragment = /* groq */ `body[]{
  ...,
  _type == "block" => {markDefs[]{..., _type == "pageLink" => {"slug": page->slug.current}}},
  _type == "image" => {alt, caption, asset, hotspot, crop, "url": asset->url}
}`

export const richTextProjection = /* groq */ `_type == "richTextSection" => {${richTextBodyFragment}}`
