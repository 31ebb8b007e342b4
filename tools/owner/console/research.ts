/**
 * The founders' console's research panel (tools/owner/console/page.ts draws it, server.ts reads it
 * and takes its two actions): how each research task was answered, the newest short answers with a
 * Revoke, and the leaderboard's entries with Hide and Show. Each action is the database's, once
 * (supabase/schemas/19_tasks.sql, 20_leaderboard.sql).
 */
import type { OwnerClient } from '../owner'
import { readCall } from '../read'
import { listBoardEntries, listRecentTaskAnswers, readTaskCounts, type BoardEntry, type RecentTaskAnswer, type TaskCount } from '../tasks'
import { dataTable as table, html, plural, type Html } from './html'
import { utcMinute } from '../owner'

export type PublishedTaskWords = {
  key: string
  places: number
  titles: Record<string, string>
  questions: { key: string; kind: string; labels: Record<string, string>; options: { key: string; labels: Record<string, string> }[] }[]
}

export type ResearchView = {
  tasks: readonly PublishedTaskWords[]
  counts: readonly TaskCount[]
  recent: readonly RecentTaskAnswer[]
  board: readonly BoardEntry[]
}

export const RESEARCH_OUTCOMES = ['revoked', 'already-revoked', 'hidden', 'shown', 'already-hidden', 'already-shown', 'unknown'] as const
export type ResearchOutcome = (typeof RESEARCH_OUTCOMES)[number]

/** What the page says after a press, for the task or entry it names. */
export const RESEARCH_OUTCOME_TEXT: Record<ResearchOutcome, (what: string) => string> = {
  revoked: (what) => `Revoked ${what}: its places are taken back.`,
  'already-revoked': (what) => `${what} was already revoked: nothing changed.`,
  hidden: (what) => `${what} is hidden from the leaderboard from its next refresh (within a minute).`,
  shown: (what) => `${what} is on the leaderboard again from its next refresh.`,
  'already-hidden': (what) => `${what} was already hidden: nothing changed.`,
  'already-shown': (what) => `${what} was already shown: nothing changed.`,
  unknown: (what) => `${what} is not there (answered or opted in): nothing changed.`,
}

/** Four reads, each an index range or a read of the tasks' own rows, never of the list. */
export async function readResearch(client: OwnerClient): Promise<ResearchView> {
  const [tasks, counts, recent, board] = await Promise.all([
    readCall<PublishedTaskWords[]>('the research tasks', client.rpc('waitlist_tasks')),
    readTaskCounts(client),
    listRecentTaskAnswers(client),
    listBoardEntries(client),
  ])
  return { tasks, counts, recent, board }
}

const when = (timestamp: string | null) => (timestamp ? utcMinute(timestamp) : '')

function oneButton(action: string, token: string, names: Record<string, string>, label: string, what: string): Html {
  const hidden = Object.entries(names).map(([name, value]) => html`<input type="hidden" name="${name}" value="${value}">`)
  return html`<form method="post" action="${action}"><input type="hidden" name="token" value="${token}">${hidden}<button type="submit" aria-label="${label} ${what}">${label}</button></form>`
}

/** Per task: how many answered, and per question how often each option was chosen (a short answer: how many gave one). */
function taskTables({ tasks, counts }: ResearchView): Html[] {
  const keys = [...new Set([...tasks.map((task) => task.key), ...counts.map((count) => count.task)])]
  return keys.map((key) => {
    const words = tasks.find((task) => task.key === key)
    const answered = counts.find((count) => count.task === key && count.question === null)?.answers ?? 0
    const title = words?.titles.en ?? key
    const rows = counts
      .filter((count) => count.task === key && count.question !== null)
      .map((count) => {
        const question = words?.questions.find((candidate) => candidate.key === count.question)
        const option = question?.options.find((candidate) => candidate.key === count.option)
        return [question?.labels.en ?? count.question!, count.option === null ? '(a short answer)' : (option?.labels.en ?? count.option), count.answers]
      })
    const status = words ? `${words.places} places` : 'no longer published'
    return html`<h3>${title} <span class="muted">(${key}, ${status})</span></h3><p>${plural(answered)} answered it.</p>${
      rows.length ? table(`Answers to ${key}`, ['Question', 'Answer', 'Answers'], rows, [2]) : ''
    }`
  })
}

export function researchSection(view: ConsoleView): Html {
  const research = view.research ?? { tasks: [], counts: [], recent: [], board: [] }
  const said = view.researchOutcome
    ? html`<div class="notice" role="status"><p>${RESEARCH_OUTCOME_TEXT[view.researchOutcome.outcome](view.researchOutcome.what)}</p></div>`
    : ''
  const about = html`<p class="muted">The research tasks as published now (docs/editors.md, "Research tasks"): each answered once by a confirmed person, who moves up by its places (at most 50 from all tasks). Revoke a junk answer: its places are taken back, once, and the task is not offered to that person again. The answers are in the export's <code>task_…</code> columns.</p>`
  const tasks = research.tasks.length || research.counts.length ? taskTables(research) : [html`<p>No research task is published.</p>`]
  const revoke = (answer: RecentTaskAnswer) =>
    answer.revoked_at
      ? `revoked ${when(answer.revoked_at)}`
      : oneButton('/revoke', view.token, { entry: answer.entry_id, task: answer.task }, 'Revoke', `${answer.task} of ${answer.email}`)
  const recent = research.recent.length
    ? table(
        'The newest answers',
        ['Answered (UTC)', 'Task', 'E-mail', 'Short answers', 'Places', 'Revoke'],
        research.recent.map((answer) => [
          when(answer.completed_at),
          answer.task,
          answer.email,
          (answer.texts ?? []).map((text) => `${text.question}: ${text.text}`).join(' | '),
          answer.places,
          revoke(answer),
        ]),
        [4],
      )
    : html`<p>Nobody has answered a task yet.</p>`
  const hide = (entry: BoardEntry) =>
    oneButton(
      '/board',
      view.token,
      { entry: entry.entry_id, hide: entry.hidden ? 'false' : 'true' },
      entry.hidden ? 'Show' : 'Hide',
      `${entry.board_name} (${entry.email})`,
    )
  const board = research.board.length
    ? table(
        'Opted in to the leaderboard',
        ['Shown as', 'Name', 'E-mail', 'Confirmed referrals', 'On the board', 'Change'],
        research.board.map((entry) => [entry.board_name, entry.name, entry.email, entry.referrals, entry.hidden ? 'hidden by you' : 'shown', hide(entry)]),
        [3],
      )
    : html`<p>Nobody has opted in to the leaderboard.</p>`
  return html`${said}${about}${tasks}
<h3>Newest answers</h3>
${recent}
<h3>The leaderboard</h3>
<p class="muted">/waitlist/leaderboard lists the top 20 of those opted in by confirmed referrals, under the name they chose (their initials unless they gave a nickname), refreshed within a minute. Hide a name that should not be there; the blocklist of words is <code>npm run waitlist:leaderboard -- block &lt;word&gt;</code>.</p>
${board}`
}

// The console view's part this file draws (tools/owner/console/page.ts's ConsoleView extends it).
export type ResearchConsoleView = { token: string; research?: ResearchView; researchOutcome?: { what: string; outcome: ResearchOutcome } }
type ConsoleView = ResearchConsoleView
