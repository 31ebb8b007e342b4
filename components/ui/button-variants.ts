import { cva, type VariantProps } from 'class-variance-authority'

// The button look, apart from the components in ./button.tsx: an island on every page (the
// consent banner) needs only these classes, and importing the components' module would ship them.
export const buttonVariants = cva(
  'inline-flex items-center justify-center gap-2 rounded-lg font-semibold transition-colors disabled:cursor-not-allowed disabled:opacity-60 whitespace-nowrap',
  {
    variants: {
      variant: {
        primary: 'bg-brand-600 text-white hover:bg-brand-700 disabled:hover:bg-brand-600',
        secondary: 'border border-slate-300 bg-white text-slate-900 hover:bg-slate-50',
        ghost: 'text-slate-700 hover:bg-slate-100 hover:text-slate-900',
        inverted: 'bg-white text-brand-700 hover:bg-brand-50',
        outlineInverted: 'border border-white/60 text-white hover:bg-white/10',
        danger: 'bg-red-700 text-white hover:bg-red-800 disabled:hover:bg-red-700',
      },
      size: {
        sm: 'px-3 py-2 text-sm',
        md: 'px-4 py-2.5 text-sm',
        lg: 'px-6 py-3 text-base',
      },
    },
    defaultVariants: { variant: 'primary', size: 'md' },
  },
)

export type ButtonVariantProps = VariantProps<typeof buttonVariants>
