import { clsx } from 'clsx'
import { cva, type VariantProps } from 'class-variance-authority'
import type { ComponentProps } from 'react'

// The text input of every form island (the waitlist form, the new-link form on the confirm page,
// the referral link to copy): one look, so a field reads the same wherever a visitor meets it.
export const inputVariants = cva('mt-1.5 block w-full rounded-lg border border-slate-300 px-3.5 py-2.5 text-slate-900', {
  variants: {
    tone: {
      /** A field to type in: focus ring, and a red border while `aria-invalid`. */
      field:
        'bg-white shadow-sm placeholder:text-slate-400 focus:border-brand-600 focus:outline-none focus:ring-2 focus:ring-brand-600/20 aria-[invalid=true]:border-red-500',
      /** A value to copy (read-only), set in monospace. */
      copy: 'bg-slate-50 font-mono text-sm',
    },
  },
  defaultVariants: { tone: 'field' },
})

/** A text input; `tone="copy"` for a read-only value to copy. */
export function Input({ tone, className, ...props }: ComponentProps<'input'> & VariantProps<typeof inputVariants>) {
  return <input className={clsx(inputVariants({ tone }), className)} {...props} />
}
