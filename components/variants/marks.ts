/**
 * How a variant page marks the section an experiment varies, in the server's HTML: the analytics
 * client reads these to send one exposure per page view (components/analytics/client.ts), so no
 * script of the experiment's own is needed.
 */
export const EXPERIMENT_ATTRIBUTE = 'data-experiment'
export const VARIANT_ATTRIBUTE = 'data-experiment-variant'

/** Which experiment's variant a section of a variant page draws. */
export type SectionMark = { experiment: string; variant: string }
