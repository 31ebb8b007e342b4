import { DemoMessageBubble, InsightCard } from '@/components/demo/demo-parts'
import { playDemo } from '@/components/demo/demo-script'
import type { DemoConversation, DemoWidgetCopy } from '@/sanity/content'

/**
 * The messages the still picture shows: the interview played with each step's first reply, up to
 * the reply the insight quotes, so the picture ends where the Slack card picks the story up.
 */
export function stillConversation(conversation: DemoConversation) {
  const played = playDemo(
    conversation,
    conversation.steps.map(() => 0),
  )
  const quotedKey = `${conversation.steps[conversation.quotedStep]?.key}:reply`
  const end = played.messages.findIndex((message) => message.key === quotedKey)
  return { messages: end === -1 ? played.messages : played.messages.slice(0, end + 1), quote: played.quote ?? '' }
}

/**
 * The product in the first screen: a demo conversation and the insight it posts, drawn on the
 * server as plain HTML (no script, no image request, nothing that paints late or shifts).
 */
export function ConversationPicture({
  conversation,
  copy,
  sender,
  caption,
  id,
}: {
  conversation: DemoConversation
  copy: DemoWidgetCopy
  sender: string
  caption: string | null
  id: string
}) {
  const { messages, quote } = stillConversation(conversation)
  return (
    <figure data-hero-visual={conversation.id} aria-labelledby={`${id}-caption`} className="mx-auto w-full max-w-md text-left lg:max-w-none">
      <div className="overflow-hidden rounded-2xl border border-slate-200 bg-white shadow-xl shadow-brand-900/10">
        <div className="flex items-center gap-2 border-b border-slate-200 bg-slate-50 px-4 py-2.5">
          <span aria-hidden="true" className="flex shrink-0 gap-1.5">
            <span className="size-2.5 rounded-full bg-slate-300" />
            <span className="size-2.5 rounded-full bg-slate-300" />
            <span className="size-2.5 rounded-full bg-slate-300" />
          </span>
          <p className="min-w-0 flex-1 text-xs text-slate-600">{conversation.context}</p>
          <span className="rounded-full bg-brand-100 px-2 py-0.5 text-[0.7rem] font-semibold uppercase tracking-wide text-brand-700">{copy.badge}</span>
        </div>
        <ol className="space-y-3 px-4 py-4">
          {messages.map((message) => (
            <DemoMessageBubble key={message.key} message={message} copy={copy} />
          ))}
        </ol>
        <InsightCard
          copy={copy}
          insight={conversation.insight}
          quote={quote}
          sender={sender}
          titleId={`${id}-insight`}
          titleLevel="p"
          className="border-t border-slate-200 bg-slate-50 px-4 py-4"
        />
      </div>
      <figcaption id={`${id}-caption`} className={caption ? 'mt-3 text-center text-sm text-slate-500' : 'sr-only'}>
        {caption ?? copy.title}
      </figcaption>
    </figure>
  )
}
