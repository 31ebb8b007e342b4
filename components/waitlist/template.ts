/**
 * Fills `{name}` placeholders in copy from Sanity; an unknown placeholder stays as written, so a
 * marketer's typo shows on the page instead of vanishing.
 */
export function fillTemplate(template: string, values: Record<string, string | number>): string {
  return template.replace(/\{(\w+)\}/g, (match, key: string) => (key in values ? String(values[key]) : match))
}
