'use client'

import { Menu, X } from 'lucide'
import { SvgIcon } from '@/components/ui/svg-icon'
import type { ReactNode } from 'react'
import { useDisclosure } from './use-disclosure'

export function MobileMenu({ openLabel, closeLabel, children }: { openLabel: string; closeLabel: string; children: ReactNode }) {
  const { open, toggleProps, panelProps } = useDisclosure()
  return (
    <div className="lg:hidden">
      <button type="button" {...toggleProps} aria-label={open ? closeLabel : openLabel} className="rounded-md p-2 text-slate-700 hover:bg-slate-100">
        <SvgIcon icon={open ? X : Menu} className="size-6" />
      </button>
      <div {...panelProps} className="absolute inset-x-0 top-16 z-40 border-b border-slate-200 bg-white shadow-lg">
        {children}
      </div>
    </div>
  )
}
