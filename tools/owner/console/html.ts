/**
 * HTML built by a tagged template that escapes every interpolated value unless it is already
 * HTML made here: visitors typed the names, e-mails, companies and campaign tags the console
 * shows, so escaping is the default and forgetting it is impossible rather than a review item.
 */

export class Html {
  constructor(readonly text: string) {}
  toString(): string {
    return this.text
  }
}

export type HtmlValue = Html | string | number | null | undefined | false | readonly HtmlValue[]

const ENTITIES: Record<string, string> = { '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;' }

/** Text made safe for element content and quoted attribute values alike. */
export function escapeHtml(text: string): string {
  return text.replace(/[&<>"']/g, (char) => ENTITIES[char] ?? char)
}

function render(value: HtmlValue): string {
  if (value === null || value === undefined || value === false) return ''
  if (value instanceof Html) return value.text
  if (Array.isArray(value)) return value.map(render).join('')
  return escapeHtml(String(value))
}

export function html(strings: TemplateStringsArray, ...values: HtmlValue[]): Html {
  return new Html(strings.reduce((out, string, index) => out + render(values[index - 1]) + string))
}

/**
 * A table with column headers and each row's first cell as its header, in a region that scrolls
 * sideways on its own when a narrow screen cannot hold it (WCAG's reflow exempts data tables; the
 * page itself never scrolls sideways). The region is focusable so a keyboard can scroll it.
 */
export function dataTable(label: string, headers: readonly string[], rows: readonly HtmlValue[][], numeric: readonly number[] = []): Html {
  const align = (column: number) => (numeric.includes(column) ? new Html(' class="n"') : '')
  const cell = (value: HtmlValue, column: number) =>
    column === 0 ? html`<th scope="row"${align(column)}>${value}</th>` : html`<td${align(column)}>${value}</td>`
  return html`<div class="table" role="region" aria-label="${label}" tabindex="0"><table><thead><tr>${headers.map((header, column) => html`<th scope="col"${align(column)}>${header}</th>`)}</tr></thead><tbody>${rows.map((row) => html`<tr>${row.map(cell)}</tr>`)}</tbody></table></div>`
}

/** "1 person", "1,204 people": how the console counts people. */
export const plural = (count: number) => (count === 1 ? '1 person' : `${count.toLocaleString('en')} people`)
