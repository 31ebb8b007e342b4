import { configuredMailEventRecorder, configuredMailEventSettings } from '@/components/waitlist/mail-events/configured'
import { handleMailEvent } from '@/components/waitlist/mail-events/handle'

// Every call is an event: never cached or prerendered.
export const dynamic = 'force-dynamic'

/**
 * The mail providers' event webhooks: /api/mail-events/resend (Svix signature), /postmark (basic
 * auth), /ses (SNS message signature). A bounce or complaint suppresses the address
 * (components/waitlist/mail-events/handle.ts).
 */
export async function POST(request: Request, context: { params: Promise<{ provider: string }> }): Promise<Response> {
  const { provider } = await context.params
  return handleMailEvent(provider, request, configuredMailEventSettings(), configuredMailEventRecorder())
}
