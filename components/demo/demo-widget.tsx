'use client'

import { Bot, RotateCcw, X } from 'lucide'
import { SvgIcon } from '@/components/ui/svg-icon'
import { useEffect, useId, useLayoutEffect, useMemo, useRef, useState, type KeyboardEvent } from 'react'
import { cn } from '@/lib/cn'
import { StartTrialLink } from '@/components/waitlist/start-trial-link'
import type { DemoWidgetContent } from '@/sanity/content/types'
import { DemoMessageBubble, InsightCard } from './demo-parts'
import { playDemo, type DemoMessage } from './demo-script'

export type DemoWidgetProps = { id: string; content: DemoWidgetContent; open: boolean; onClose: () => void }

/** How long the interviewer "types" before each follow-up; shorter, and without animation, for reduced motion. */
export const TYPING_MS = { normal: 900, reducedMotion: 300 } as const

const reducedMotion = () => typeof window !== 'undefined' && window.matchMedia('(prefers-reduced-motion: reduce)').matches

/**
 * The scripted demo: a chat panel that plays a research interview authored in the CMS. The
 * visitor moves it along by choosing suggested replies; at the end the insight arrives as a
 * Slack message. Loaded by DemoWidgetHost on the first Try Demo press, never before.
 *
 * Accessibility: a non-modal dialog (role="dialog", named by its heading, described by its
 * context and note). It does not block the page or trap focus, since a chat panel sits beside
 * the page; opening moves focus to its heading, Escape or the close button close it and the
 * host returns focus to the button that opened it. The transcript is a polite live log, so
 * each new message is announced; after a choice, focus moves to the next set of replies.
 */
export function DemoWidget({ id, content, open, onClose }: DemoWidgetProps) {
  const { copy, conversation, sender, language } = content
  const [choices, setChoices] = useState<number[]>([])
  const [typing, setTyping] = useState(false)
  const state = useMemo(() => playDemo(conversation, choices), [conversation, choices])
  const ids = { title: useId(), context: useId(), note: useId(), choose: useId(), insight: useId() }
  const headingRef = useRef<HTMLHeadingElement>(null)
  const logRef = useRef<HTMLDivElement>(null)
  const footerRef = useRef<HTMLDivElement>(null)
  const timer = useRef<ReturnType<typeof setTimeout> | null>(null)
  const focusNext = useRef(false)

  // While the interviewer "types", its last message waits behind the indicator.
  const shown: DemoMessage[] = typing ? state.messages.slice(0, -1) : state.messages
  const finished = state.replies === null && !typing

  useEffect(() => {
    if (open) headingRef.current?.focus()
  }, [open])

  useEffect(() => {
    const pending = timer
    return () => {
      if (pending.current) clearTimeout(pending.current)
    }
  }, [])

  // Keep the newest message in view; show the insight from its top.
  useLayoutEffect(() => {
    const log = logRef.current
    if (!log || !open) return
    const insight = log.querySelector<HTMLElement>('[data-demo-insight]')
    const top = insight ? insight.offsetTop - 8 : log.scrollHeight
    log.scrollTo({ top, behavior: reducedMotion() ? 'auto' : 'smooth' })
  }, [shown.length, typing, finished, open])

  // After a choice, focus waits on the footer; it moves on to the next replies, or at the end to the waitlist link.
  useEffect(() => {
    if (typing || !focusNext.current) return
    focusNext.current = false
    footerRef.current?.querySelector<HTMLElement>('button, a')?.focus()
  }, [typing, choices])

  const choose = (index: number) => {
    const hasFollowUp = Boolean(conversation.steps[choices.length]?.replies[index]?.followUp)
    focusNext.current = true
    footerRef.current?.focus()
    setChoices((previous) => [...previous, index])
    if (!hasFollowUp) return
    setTyping(true)
    timer.current = setTimeout(() => setTyping(false), reducedMotion() ? TYPING_MS.reducedMotion : TYPING_MS.normal)
  }

  const restart = () => {
    if (timer.current) clearTimeout(timer.current)
    focusNext.current = true
    setTyping(false)
    setChoices([])
  }

  const onKeyDown = (event: KeyboardEvent) => {
    if (event.key !== 'Escape') return
    event.preventDefault()
    onClose()
  }

  return (
    <div
      id={id}
      role="dialog"
      aria-labelledby={ids.title}
      aria-describedby={`${ids.context} ${ids.note}`}
      hidden={!open}
      onKeyDown={onKeyDown}
      data-demo-widget={conversation.id}
      className={cn(
        'fixed z-[60] flex flex-col overflow-hidden border border-slate-200 bg-white shadow-2xl',
        // A bottom sheet on phones, a panel in the bottom-right corner from sm up (the consent banner sits bottom-left).
        'inset-x-0 bottom-0 h-[min(85dvh,40rem)] rounded-t-2xl',
        'sm:inset-x-auto sm:bottom-4 sm:right-4 sm:h-[min(38rem,calc(100dvh-6rem))] sm:w-[24rem] sm:rounded-2xl',
      )}
    >
      <div className="flex items-start gap-3 border-b border-slate-200 bg-slate-50 px-4 py-3">
        <div className="min-w-0 flex-1">
          <div className="flex flex-wrap items-center gap-2">
            <h2 id={ids.title} ref={headingRef} tabIndex={-1} className="text-sm font-semibold text-slate-900 focus:outline-none">
              {copy.title}
            </h2>
            <span className="rounded-full bg-brand-100 px-2 py-0.5 text-[0.7rem] font-semibold uppercase tracking-wide text-brand-700">{copy.badge}</span>
          </div>
          <p id={ids.context} className="mt-0.5 text-xs text-slate-600">
            {conversation.context}
          </p>
        </div>
        <button
          type="button"
          onClick={onClose}
          aria-label={copy.closeLabel}
          className="-m-1 rounded-md p-1.5 text-slate-500 hover:bg-slate-200 hover:text-slate-900"
        >
          <SvgIcon icon={X} className="size-5" />
        </button>
      </div>
      <p id={ids.note} className="border-b border-slate-100 px-4 py-2 text-xs text-slate-500">
        {copy.note}
      </p>

      <div ref={logRef} role="log" aria-labelledby={ids.context} className="relative min-h-0 flex-1 overflow-y-auto overscroll-contain px-4 py-4">
        <ol className="space-y-3">
          {shown.map((message) => (
            <DemoMessageBubble key={message.key} message={message} copy={copy} />
          ))}
          {typing ? (
            <li className="flex items-center gap-2" data-demo-typing="">
              <span aria-hidden="true" className="grid size-7 shrink-0 place-items-center rounded-full bg-brand-600 text-white">
                <SvgIcon icon={Bot} className="size-4" />
              </span>
              <span className="inline-flex items-center gap-2 rounded-2xl rounded-tl-sm bg-slate-100 px-3 py-2 text-xs text-slate-600">
                <span aria-hidden="true" className="inline-flex gap-0.5">
                  {[0, 150, 300].map((delay) => (
                    <span key={delay} className="size-1.5 rounded-full bg-slate-400 motion-safe:animate-bounce" style={{ animationDelay: `${delay}ms` }} />
                  ))}
                </span>
                {copy.typingLabel}
              </span>
            </li>
          ) : null}
        </ol>
        {finished && state.quote !== null ? (
          <InsightCard copy={copy} insight={conversation.insight} quote={state.quote} titleId={ids.insight} sender={sender} />
        ) : null}
      </div>

      <div ref={footerRef} tabIndex={-1} className="min-h-16 border-t border-slate-200 px-4 py-3 focus:outline-none">
        {state.replies && !typing ? (
          <div role="group" aria-labelledby={ids.choose}>
            <p id={ids.choose} className="mb-2 text-xs font-medium text-slate-500">
              {copy.chooseReplyLabel}
            </p>
            <div className="flex flex-col gap-2">
              {state.replies.map((reply, index) => (
                <button
                  key={reply.key}
                  type="button"
                  onClick={() => choose(index)}
                  className="rounded-xl border border-brand-200 bg-brand-50 px-3 py-2 text-left text-sm text-brand-900 hover:border-brand-500 hover:bg-brand-100"
                >
                  {reply.text}
                </button>
              ))}
            </div>
          </div>
        ) : null}
        {finished ? (
          // The demo leads somewhere: on to the waitlist (recorded like every other such button), or round again.
          <div className="flex flex-wrap items-center gap-2">
            <StartTrialLink location="demo" language={language} size="sm">
              {copy.joinWaitlistLabel}
            </StartTrialLink>
            <button
              type="button"
              onClick={restart}
              className="inline-flex items-center gap-2 rounded-lg border border-slate-300 px-3 py-2 text-sm font-semibold text-slate-900 hover:bg-slate-50"
            >
              <SvgIcon icon={RotateCcw} className="size-4" />
              {copy.restartLabel}
            </button>
          </div>
        ) : null}
      </div>
    </div>
  )
}
