import { unsubscribe, unsubscribePage } from '@/components/waitlist/unsubscribe-route'

// Every call acts or redirects: never cached or prerendered.
export const dynamic = 'force-dynamic'

/**
 * The address in every e-mail's List-Unsubscribe header (RFC 8058). A mail program's one-click
 * POST takes the person off the list; a GET (a person clicking, or a scanner following links)
 * only leads to the page that asks them to press a button.
 */
export const GET = (request: Request) => unsubscribePage(request)
export const POST = (request: Request) => unsubscribe(request)
