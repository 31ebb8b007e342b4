// The placeholders a marketer may write in copy: the content layer (sanity/content/reshape.ts)
// replaces them and the Studio's field hints name them, both from here. No imports: the
// server's page code reads this without pulling in the Studio.
export const USAGE_CLAIM_TOKEN = '{{usageClaim}}'
/** Lets texts (the legal pages) name the address in Site settings → Contact, so changing it there changes it everywhere. */
export const CONTACT_EMAIL_TOKEN = '{{contactEmail}}'
