/**
 * The Try Demo buttons and the demo widget never import each other: buttons announce a
 * toggle on the window, and whichever widget is on the page (the authored demo or the
 * product's own) listens. With no widget on the page the event simply has no listener.
 */
export const DEMO_TOGGLE_EVENT = 'demo-widget:toggle'

export type DemoToggleDetail = { location: string; opener: HTMLElement | null }

export function toggleDemoWidget(detail: DemoToggleDetail) {
  window.dispatchEvent(new CustomEvent<DemoToggleDetail>(DEMO_TOGGLE_EVENT, { detail }))
}
