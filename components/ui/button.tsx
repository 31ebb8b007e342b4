import { clsx } from 'clsx'
import type { ComponentProps } from 'react'
import { buttonVariants, type ButtonVariantProps } from './button-variants'

export { buttonVariants, type ButtonVariantProps }

// Plain clsx, not cn(): these render inside client islands too, where tailwind-merge's 9 kB would
// be paid for nothing (the variants never conflict; layout classes such as margins are added).

/** A link that looks like a button (every call to action that navigates). */
export function ButtonLink({ variant, size, className, ...props }: ComponentProps<'a'> & ButtonVariantProps) {
  return <a className={clsx(buttonVariants({ variant, size }), className)} {...props} />
}

/** A button; `type="button"` unless a form submit is asked for. */
export function Button({ variant, size, className, type = 'button', ...props }: ComponentProps<'button'> & ButtonVariantProps) {
  return <button type={type} className={clsx(buttonVariants({ variant, size }), className)} {...props} />
}
