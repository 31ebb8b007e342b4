/**
 * The one way the client islands talk to each other. Islands are hydrated separately and must not
 * import each other (a Try Demo button would otherwise pull the whole demo into every page's
 * bundle), so one announces on the window and whoever is on the page listens; with nobody
 * listening the announcement simply goes nowhere. Each feature declares its own channel here:
 *
 *   export const demoToggle = islandEvent<DemoToggleDetail>('demo-widget:toggle')
 */
export type IslandEvent<Detail> = {
  emit: (detail: Detail) => void
  /** Calls back on every emit in this page; returns the unsubscribe. */
  on: (listener: (detail: Detail) => void) => () => void
}

export function islandEvent<Detail = void>(name: string): IslandEvent<Detail> {
  return {
    emit: (detail) => window.dispatchEvent(new CustomEvent<Detail>(name, { detail })),
    on: (listener) => {
      const handler = (event: Event) => listener((event as CustomEvent<Detail>).detail)
      window.addEventListener(name, handler)
      return () => window.removeEventListener(name, handler)
    },
  }
}
