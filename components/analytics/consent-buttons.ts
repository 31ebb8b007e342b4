import { buttonVariants } from '@/components/ui/button-variants'

/**
 * The consent banner's two button looks, drawn on the server and handed to the banner as strings:
 * the banner is an island on every page, and calling buttonVariants there would ship
 * class-variance-authority and every variant's classes with it (the bench's first-load JavaScript
 * of `/` went from 141.9 to 141.3 kB gzipped when it stopped, 2026-11-28).
 */
export const consentButtonLooks = {
  primary: buttonVariants({ size: 'sm' }),
  secondary: buttonVariants({ variant: 'secondary', size: 'sm' }),
}

export type ConsentButtonLooks = typeof consentButtonLooks
