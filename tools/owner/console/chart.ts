/**
 * Sign-ups and confirmations per day as an SVG drawn on the server: no chart library and no
 * script in the page (its Content-Security-Policy allows none). Screen readers get the chart's
 * title and a description in words, and everyone gets the same figures as a table under it.
 */
import type { DayCount } from './figures'
import { dataTable, html, type Html } from './html'

const WIDTH = 640
const HEIGHT = 260
const PLOT = { left: 40, right: WIDTH - 8, top: 12, bottom: HEIGHT - 34 }

/** A round step for about four gridlines: 1, 2 or 5 times a power of ten, at least 1. */
function gridStep(max: number): number {
  const rough = Math.max(1, max / 4)
  const power = 10 ** Math.floor(Math.log10(rough))
  return [1, 2, 5, 10].map((factor) => factor * power).find((step) => step >= rough)!
}

const shortDay = (day: string) => day.slice(5)

function describe(series: readonly DayCount[]): string {
  const total = (field: 'signUps' | 'confirmations') => series.reduce((sum, day) => sum + day[field], 0)
  const busiest = series.reduce((best, day) => (day.signUps > best.signUps ? day : best), series[0]!)
  const days = series.length === 1 ? '1 day' : `${series.length} days`
  return `${days} from ${series[0]!.day} to ${series.at(-1)!.day} (UTC): ${total('signUps')} sign-ups and ${total('confirmations')} confirmations; the most sign-ups in one day, ${busiest.signUps}, on ${busiest.day}.`
}

export function dailyChart(series: readonly DayCount[]): Html {
  if (series.length === 0) return html`<p>Nobody has signed up yet.</p>`
  const max = Math.max(...series.map((day) => Math.max(day.signUps, day.confirmations)))
  const step = gridStep(max)
  const top = Math.max(step, Math.ceil(max / step) * step)
  const y = (value: number) => PLOT.bottom - ((PLOT.bottom - PLOT.top) * value) / top
  const band = (PLOT.right - PLOT.left) / series.length
  const bar = Math.max(1, band * 0.38)
  const labelEvery = Math.ceil(series.length / 8)
  const ticks = Array.from({ length: top / step + 1 }, (_, index) => index * step)
  const round = (value: number) => Math.round(value * 10) / 10

  const gridlines = ticks.map(
    (tick) =>
      html`<line class="grid" x1="${PLOT.left}" x2="${PLOT.right}" y1="${round(y(tick))}" y2="${round(y(tick))}"/><text class="tick" x="${PLOT.left - 6}" y="${round(y(tick) + 4)}" text-anchor="end">${tick}</text>`,
  )
  const bars = series.map((day, index) => {
    const x = PLOT.left + index * band + band / 2
    const label =
      index % labelEvery === 0 ? html`<text class="tick" x="${round(x)}" y="${PLOT.bottom + 16}" text-anchor="middle">${shortDay(day.day)}</text>` : ''
    return html`<rect class="signups" x="${round(x - bar)}" y="${round(y(day.signUps))}" width="${round(bar)}" height="${round(PLOT.bottom - y(day.signUps))}"/><rect class="confirmations" x="${round(x)}" y="${round(y(day.confirmations))}" width="${round(bar)}" height="${round(PLOT.bottom - y(day.confirmations))}"/>${label}`
  })

  return html`<figure>
<svg viewBox="0 0 ${WIDTH} ${HEIGHT}" role="img" aria-labelledby="chart-title chart-desc">
<title id="chart-title">Sign-ups and confirmations per day</title>
<desc id="chart-desc">${describe(series)}</desc>
${gridlines}
<line class="axis" x1="${PLOT.left}" x2="${PLOT.right}" y1="${PLOT.bottom}" y2="${PLOT.bottom}"/>
${bars}
<text class="tick" x="${PLOT.right}" y="${HEIGHT - 2}" text-anchor="end">day (UTC, month-day)</text>
</svg>
<figcaption><span class="key signups" aria-hidden="true"></span> Sign-ups <span class="key confirmations" aria-hidden="true"></span> Confirmations, per UTC day</figcaption>
</figure>
<details>
<summary>The figures as a table</summary>
${dataTable(
  'Sign-ups and confirmations per day',
  ['Day (UTC)', 'Sign-ups', 'Confirmations'],
  series.map((day) => [day.day, day.signUps, day.confirmations]),
  [1, 2],
)}
</details>`
}
