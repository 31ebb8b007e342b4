/**
 * Checked by `tsc --noEmit` (the "Type check" step of `npm test`), never run: the clients the
 * product and the owner's tools use know every database function by name, with its arguments, from
 * supabase/types.generated.ts. Each `@ts-expect-error` below must stay an error: if a client lost
 * its Database type, the misspelling would compile and tsc would fail on the unused directive.
 */
import type { OwnerClient } from '@/tools/owner/owner'
import type { ServiceClient } from '@/lib/supabase/service'
import type { createWaitlistClient } from '@/components/waitlist/client'

export async function misspelt(service: ServiceClient, owner: OwnerClient, browser: ReturnType<typeof createWaitlistClient>): Promise<void> {
  // @ts-expect-error: no function waitlist_unsubcribe (sic)
  await service.rpc('waitlist_unsubcribe', { token: 't' })
  // @ts-expect-error: waitlist_unsubscribe takes `token`, not `tokn`
  await service.rpc('waitlist_unsubscribe', { tokn: 't' })
  // @ts-expect-error: `n` is a number
  await owner.rpc('waitlist_invite_next', { n: '3', dry_run: true })
  // @ts-expect-error: no function waitlist_confirmed; the browser's key calls waitlist_confirm
  await browser.rpc('waitlist_confirmed', { token: 't' })

  // Spelt right, the same calls compile.
  await service.rpc('waitlist_unsubscribe', { token: 't' })
  await owner.rpc('waitlist_invite_next', { n: 3, dry_run: true })
  await browser.rpc('waitlist_confirm', { token: 't' })
}
