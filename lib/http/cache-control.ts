/**
 * What no shared cache may keep: an answer that depends on who asks (a participant's variant and
 * the cookie that assigned it, a twin answered at its page's address, a draft, a declined
 * prerender, a redirect chosen by the Referer). Every CDN honours this where some ignore `Vary`
 * (docs/engineers.md, "Shared caches").
 */
export const PRIVATE_NO_STORE = 'private, no-store'
