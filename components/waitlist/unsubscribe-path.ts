/** The one-click unsubscribe address: every e-mail's List-Unsubscribe header, and the leave page's button. */
export const UNSUBSCRIBE_PATH = '/api/unsubscribe'

/** The page a person is shown (a GET of the header's address leads there): the token in the fragment. */
export const LEAVE_PAGE_PATH = '/waitlist/unsubscribe'

/** The header's address: RFC 8058 wants the token in the URL, POSTed as it is. */
export function unsubscribeUrl(siteUrl: string, token: string): string {
  const url = new URL(UNSUBSCRIBE_PATH, siteUrl)
  url.searchParams.set('token', token)
  return url.toString()
}

/** The link written into the e-mail: the page that asks for a press. */
export function leavePageUrl(siteUrl: string, token: string): string {
  return `${new URL(LEAVE_PAGE_PATH, siteUrl).toString()}#token=${token}`
}
