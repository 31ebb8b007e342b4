import { redeemInvitation } from '@/components/waitlist/invitations'

// Every call is a redemption: never cached or prerendered.
export const dynamic = 'force-dynamic'

/**
 * The product's app redeems an invitation token here (docs/app-contract.md, "Redeem an invitation"):
 * `Authorization: Bearer <INVITATION_REDEEM_SECRET>`, body `{"token": "…"}`.
 */
export const POST = (request: Request) => redeemInvitation(request)
