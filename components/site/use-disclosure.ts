'use client'

import { useCallback, useEffect, useId, useRef, useState } from 'react'

/**
 * Open/close state for a button that controls a panel (dropdown, phone menu): Escape and
 * a click outside close it, Escape returns focus to the button, and choosing a link or
 * button inside the panel closes it.
 */
export function useDisclosure<Toggle extends HTMLElement = HTMLButtonElement>() {
  const [open, setOpen] = useState(false)
  const toggleRef = useRef<Toggle>(null)
  const panelRef = useRef<HTMLDivElement>(null)
  const panelId = useId()

  const close = useCallback((returnFocus = false) => {
    setOpen(false)
    if (returnFocus) toggleRef.current?.focus()
  }, [])

  useEffect(() => {
    if (!open) return
    const onKeyDown = (event: KeyboardEvent) => {
      if (event.key === 'Escape') {
        event.preventDefault()
        close(true)
      }
    }
    const onPointerDown = (event: PointerEvent) => {
      const target = event.target as Node
      if (!panelRef.current?.contains(target) && !toggleRef.current?.contains(target)) close()
    }
    document.addEventListener('keydown', onKeyDown)
    document.addEventListener('pointerdown', onPointerDown)
    return () => {
      document.removeEventListener('keydown', onKeyDown)
      document.removeEventListener('pointerdown', onPointerDown)
    }
  }, [open, close])

  const toggleProps = {
    ref: toggleRef,
    'aria-expanded': open,
    'aria-controls': panelId,
    onClick: () => setOpen((value) => !value),
  }

  const panelProps = {
    ref: panelRef,
    id: panelId,
    hidden: !open,
    onClick: (event: React.MouseEvent) => {
      if ((event.target as HTMLElement).closest('a, button')) close()
    },
  }

  return { open, close, toggleProps, panelProps }
}
