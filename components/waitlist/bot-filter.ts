/**
 * Cheap filters for scripted sign-ups, applied in the form before anything is sent. Neither
 * ever fakes success: the database's own limits are the real guard, and a person must always
 * be told the truth about their sign-up.
 *
 * - A submit sooner than MIN_FILL_MS after the form appeared (autofill, a password manager, a
 *   fast typist pressing Enter) is not refused: the form waits out the rest and then sends it.
 *   A script gains nothing by being fast, and a person loses nothing.
 * - The honeypot is a field no browser or password manager fills (a name and label that match
 *   no autofill heuristic, autofill and password managers told to ignore it). A submission with
 *   it filled is refused as automated, and the visitor is told so, with a way forward: the field
 *   is cleared, so pressing the button again sends the sign-up.
 */

/** The honeypot's field name: meaningless to autofill, tempting to a script that fills every input. */
export const HONEYPOT_FIELD = 'wl_hp_leave_empty'

/** The least time between the form appearing and its sign-up being sent. */
export const MIN_FILL_MS = 1500

/** Milliseconds still to wait before sending a sign-up whose form appeared at `shownAt`. */
export function remainingFillTime(shownAt: number, now: number): number {
  if (!Number.isFinite(shownAt)) return MIN_FILL_MS
  return Math.max(0, Math.min(MIN_FILL_MS, MIN_FILL_MS - (now - shownAt)))
}

export function honeypotFilled(value: string): boolean {
  return value.trim() !== ''
}
