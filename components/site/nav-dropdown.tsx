'use client'

import { ChevronDown } from 'lucide'
import { SvgIcon } from '@/components/ui/svg-icon'
import type { ReactNode } from 'react'
import { clsx } from 'clsx'
import { useDisclosure } from './use-disclosure'

export function NavDropdown({ label, children }: { label: string; children: ReactNode }) {
  const { open, toggleProps, panelProps } = useDisclosure()
  return (
    <div className="relative">
      <button
        type="button"
        {...toggleProps}
        className="inline-flex items-center gap-1 rounded-md px-3 py-2 text-sm font-medium text-slate-700 hover:text-slate-900"
      >
        {label}
        <SvgIcon icon={ChevronDown} className={clsx('size-4 transition-transform', open && 'rotate-180')} />
      </button>
      <div {...panelProps} className="absolute left-0 top-full z-50 mt-2 min-w-44 rounded-lg border border-slate-200 bg-white p-1 shadow-lg">
        {children}
      </div>
    </div>
  )
}
