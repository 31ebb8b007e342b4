import { EyeClosedIcon } from '@sanity/icons/EyeClosed'
import { definePlugin } from 'sanity'

/** The words of the tool: what an editor needs to know and whom to ask (docs/editors.md, "Draft preview"). */
export const PREVIEWS_OFF_TEXT = {
  heading: 'Draft preview is not set up on this site',
  body: 'Presentation shows the site with your drafts beside the form once the site has a Sanity read token. Ask whoever runs the site to set SANITY_API_READ_TOKEN (a Viewer token from sanity.io/manage, API, Tokens) where the site is deployed, and to deploy again. Until then, publish to see a change on the site.',
}

function PreviewsOff() {
  return (
    <div style={{ maxWidth: '40rem', margin: '0 auto', padding: '3rem 1.5rem', lineHeight: 1.5 }}>
      <h1 style={{ fontSize: '1.25rem', fontWeight: 600, margin: '0 0 1rem' }}>{PREVIEWS_OFF_TEXT.heading}</h1>
      <p style={{ margin: 0 }}>{PREVIEWS_OFF_TEXT.body}</p>
    </div>
  )
}

/** Stands where Presentation would, under its name, when the site cannot show drafts. */
export const previewsOff = definePlugin({
  name: 'previews-off',
  tools: [{ name: 'presentation', title: 'Presentation', icon: EyeClosedIcon, component: PreviewsOff }],
})
