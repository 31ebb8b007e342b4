const warned = new Set<string>()

/**
 * A warning about content, said once per server process: the same document is reshaped on every
 * render, and the log should name a problem, not repeat it for each visitor.
 */
export function warnOnce(message: string): void {
  if (warned.has(message)) return
  warned.add(message)
  console.warn(message)
}
