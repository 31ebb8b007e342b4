import { Bot } from 'lucide'
import { SvgIcon } from '@/components/ui/svg-icon'
import { cn } from '@/lib/cn'
import type { DemoConversation, DemoSentiment, DemoWidgetCopy } from '@/sanity/content/types'
import type { DemoMessage } from './demo-script'

// The pieces of a demo conversation as the widget plays it and as the hero's still picture shows
// it. No 'use client': the hero renders them on the server (no JavaScript for a picture), the
// widget's lazily loaded chunk in the browser.

const SENTIMENT_CLASS: Record<DemoSentiment, string> = {
  positive: 'bg-emerald-50 text-emerald-800 ring-emerald-200',
  neutral: 'bg-slate-100 text-slate-700 ring-slate-200',
  mixed: 'bg-amber-50 text-amber-800 ring-amber-200',
  negative: 'bg-rose-50 text-rose-800 ring-rose-200',
}

/** One chat message; screen readers hear who says it. */
export function DemoMessageBubble({ message, copy }: { message: DemoMessage; copy: Pick<DemoWidgetCopy, 'interviewerLabel' | 'visitorLabel'> }) {
  return (
    <li data-from={message.from} className={cn('flex gap-2', message.from === 'visitor' && 'justify-end')}>
      {message.from === 'interviewer' ? (
        <span aria-hidden="true" className="mt-0.5 grid size-7 shrink-0 place-items-center rounded-full bg-brand-600 text-white">
          <SvgIcon icon={Bot} className="size-4" />
        </span>
      ) : null}
      <p
        className={cn(
          'max-w-[85%] rounded-2xl px-3 py-2 text-sm leading-relaxed',
          message.from === 'interviewer' ? 'rounded-tl-sm bg-slate-100 text-slate-900' : 'rounded-tr-sm bg-brand-600 text-white',
        )}
      >
        <span className="sr-only">{message.from === 'interviewer' ? copy.interviewerLabel : copy.visitorLabel}: </span>
        {message.text}
      </p>
    </li>
  )
}

/** The insight as it lands in the team's Slack channel. */
export function InsightCard({
  copy,
  insight,
  quote,
  titleId,
  sender,
  className = 'mt-5',
  titleLevel: Title = 'h3',
}: {
  copy: DemoWidgetCopy
  insight: DemoConversation['insight']
  quote: string
  titleId: string
  sender: string
  className?: string
  titleLevel?: 'h3' | 'p'
}) {
  return (
    <article aria-labelledby={titleId} data-demo-insight="" className={className}>
      <Title id={titleId} className="text-xs font-semibold uppercase tracking-wide text-slate-500">
        {copy.insightTitle}
      </Title>
      <div className="mt-2 rounded-xl border border-slate-200 bg-white text-sm shadow-sm">
        <p data-demo-channel="" className="border-b border-slate-100 px-3 py-2 font-semibold text-slate-900">
          {insight.channel}
        </p>
        <div className="flex gap-2.5 px-3 py-3">
          <span aria-hidden="true" className="grid size-8 shrink-0 place-items-center rounded-md bg-brand-600 text-sm font-bold text-white">
            {sender.slice(0, 1)}
          </span>
          <div className="min-w-0 space-y-2">
            <p className="font-bold text-slate-900">{sender}</p>
            <p className="text-slate-800">{insight.summary}</p>
            <div>
              <p className="text-xs font-semibold text-slate-500">{copy.quoteLabel}</p>
              <blockquote className="mt-1 border-l-4 border-slate-300 pl-2 text-slate-700">{quote}</blockquote>
            </div>
            <ul className="flex flex-wrap gap-1.5">
              {insight.tags.map((tag) => (
                <li key={tag} className="rounded bg-slate-100 px-1.5 py-0.5 text-xs font-medium text-slate-700">
                  {tag}
                </li>
              ))}
              <li
                data-sentiment={insight.sentiment}
                className={cn('rounded px-1.5 py-0.5 text-xs font-medium ring-1 ring-inset', SENTIMENT_CLASS[insight.sentiment])}
              >
                {copy.sentiments[insight.sentiment]}
              </li>
            </ul>
            <div>
              <p className="text-xs font-semibold text-slate-500">{copy.actionLabel}</p>
              <p className="mt-1 text-slate-800">{insight.action}</p>
            </div>
          </div>
        </div>
      </div>
    </article>
  )
}
