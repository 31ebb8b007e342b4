import { buttonVariants } from '@/components/ui/button-variants'

/**
 * The consent banner's two button looks, drawn on the server and handed to the banner as strings:
 * the banner is an island on every page, and calling buttonVariants there would ship
 * class-variance-authority and every variant's classes with it (about 0.9 kB gzipped of the
 * first-load JavaScript of every page, docs/bench.md).
 */
export const consentButtonLooks = {
  primary: buttonVariants({ size: 'sm' }),
  secondary: buttonVariants({ variant: 'secondary', size: 'sm' }),
}

export type ConsentButtonLooks = typeof consentButtonLooks
