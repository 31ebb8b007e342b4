import { config } from 'zod'

/**
 * Imported first by components/studio/studio.tsx, before anything that parses with zod (the Studio
 * and lib/env): zod's first parse checks whether eval works by calling `new Function`; the Studio's
 * policy refuses eval (lib/security-headers.ts) and Chromium reports the refused check as a policy
 * violation on every load. Told so, zod skips the check and uses its eval-free path.
 */
config({ jitless: true })
