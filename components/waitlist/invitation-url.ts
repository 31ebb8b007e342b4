/**
 * Where an invitation's button goes: the product's app (Site settings → App address) with the
 * invitation token as `?invitation=`, which the app's server redeems (docs/app-contract.md).
 * Browser-safe: the person's page builds it too, from a token it was just given.
 */
export function invitationUrl(appUrl: string, token: string): string {
  const url = new URL(appUrl)
  url.searchParams.set('invitation', token)
  return url.toString()
}
