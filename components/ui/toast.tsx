'use client'

import { X } from 'lucide'
import { SvgIcon } from './svg-icon'
import { useEffect } from 'react'
import { clsx } from 'clsx'

export type ToastMessage = { tone: 'success' | 'info' | 'error'; text: string; id: number }

const DISMISS_AFTER_MS = 8000

/**
 * One toast at a time. The live regions stay mounted so screen readers announce each new
 * message: errors assertively (role=alert), everything else politely (role=status).
 */
export function Toast({ message, onDismiss }: { message: ToastMessage | null; onDismiss: () => void }) {
  useEffect(() => {
    if (!message) return
    const timer = setTimeout(onDismiss, DISMISS_AFTER_MS)
    return () => clearTimeout(timer)
  }, [message, onDismiss])

  const card = message ? (
    <div
      data-toast={message.tone}
      className={clsx(
        'pointer-events-auto flex items-start gap-3 rounded-xl border px-4 py-3 shadow-lg',
        message.tone === 'success' && 'border-emerald-200 bg-emerald-50 text-emerald-900',
        message.tone === 'info' && 'border-brand-200 bg-brand-50 text-brand-900',
        message.tone === 'error' && 'border-red-200 bg-red-50 text-red-900',
      )}
    >
      <p className="text-sm font-medium">{message.text}</p>
      <button type="button" onClick={onDismiss} className="-m-1 rounded p-1 opacity-70 hover:opacity-100" aria-label="Dismiss">
        <SvgIcon icon={X} className="size-4" />
      </button>
    </div>
  ) : null

  return (
    <div className="pointer-events-none fixed inset-x-4 bottom-4 z-50 flex justify-center sm:inset-x-auto sm:right-4">
      <div role="alert" className="contents">
        {message?.tone === 'error' ? card : null}
      </div>
      <div role="status" className="contents">
        {message && message.tone !== 'error' ? card : null}
      </div>
    </div>
  )
}
