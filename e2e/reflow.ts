import type { Page } from '@playwright/test'

// WCAG 2.2 1.4.10 (Reflow) and 1.4.4 (Resize text), measured in the page as it is drawn: the page
// must not scroll sideways, and no visible text may lie outside the screen or outside a box that
// clips it (overflow hidden, `truncate`, a fixed panel wider than the screen). Each offender is
// named by a short CSS path and the start of its text, so a failure says what to fix.

/** WCAG 1.4.12's text spacing: wider than any font's default, so what fits here fits a wide font too. */
export const WIDE_TEXT_CSS = `* { letter-spacing: 0.12em !important; word-spacing: 0.16em !important; line-height: 1.5 !important; }
p { margin-bottom: 2em !important; }`

/** Applies WCAG 1.4.12's text spacing to the page (for every later navigation too). */
export async function widenText(page: Page) {
  await page.addInitScript((css) => {
    const apply = () => {
      const style = document.createElement('style')
      style.dataset.wideText = ''
      style.textContent = css
      document.head.append(style)
    }
    if (document.head) apply()
    else document.addEventListener('DOMContentLoaded', apply, { once: true })
  }, WIDE_TEXT_CSS)
}

/**
 * The browser's own text size, as its settings page sets it (Chromium's default font size): 200 %
 * makes 1rem 32 px. Not page zoom: the layout width stays what it was, only text grows.
 */
export async function setTextSize(page: Page, percent: number) {
  const session = await page.context().newCDPSession(page)
  await session.send('Page.setFontSizes', { fontSizes: { standard: (16 * percent) / 100, fixed: (13 * percent) / 100 } })
}

/**
 * What breaks reflow on the page now, at a layout `width` (CSS px): the outermost elements that
 * make the page scroll sideways, and every element whose text is cut. Empty when it reflows.
 */
export function reflowOffenders(page: Page, width: number): Promise<string[]> {
  return page.evaluate((width) => {
    const SLACK = 1
    const describe = (el: Element) => {
      const parts: string[] = []
      for (let node: Element | null = el; node && node !== document.body && parts.length < 4; node = node.parentElement) {
        const id = node.id ? `#${node.id}` : ''
        const label = node.getAttribute('aria-label') ?? node.getAttribute('aria-labelledby')
        parts.unshift(`${node.tagName.toLowerCase()}${id}${!id && label ? `[${label.slice(0, 30)}]` : ''}`)
      }
      const text = (el.textContent ?? '').replace(/\s+/g, ' ').trim().slice(0, 40)
      return `${parts.join(' > ')}${text ? ` "${text}"` : ''}`
    }
    const style = (el: Element) => getComputedStyle(el)
    const visible = (el: Element) => el.checkVisibility({ visibilityProperty: true, opacityProperty: true })
    // A visually hidden element (Tailwind's sr-only): clipped on purpose, read by screen readers only.
    const visuallyHidden = (el: Element) => {
      const s = style(el)
      return s.clipPath !== 'none' || (s.clip !== 'auto' && s.clip !== '') || (s.position === 'absolute' && el.getBoundingClientRect().width <= 1)
    }
    const clips = (el: Element) => {
      const s = style(el)
      return s.overflowX !== 'visible' || s.overflowY !== 'visible'
    }
    const scrolls = (el: Element) => ['auto', 'scroll'].includes(style(el).overflowX) || ['auto', 'scroll'].includes(style(el).overflowY)

    const offenders: string[] = []

    // 1. Sideways scrolling: name the outermost elements past the right (or left) edge.
    const pageScrolls = document.documentElement.scrollWidth > width + SLACK
    if (pageScrolls) {
      for (const el of document.body.querySelectorAll('*')) {
        if (!visible(el) || style(el).position === 'fixed') continue
        const box = el.getBoundingClientRect()
        if (box.width === 0 || (box.right <= width + SLACK && box.left >= -SLACK)) continue
        // Only the outermost: a child of an element already named is part of the same problem.
        const parent = el.parentElement!
        const parentBox = parent.getBoundingClientRect()
        if (parent !== document.body && (parentBox.right > width + SLACK || parentBox.left < -SLACK)) continue
        offenders.push(
          `${describe(el)} sticks out: ${Math.round(box.left)}–${Math.round(box.right)} px of ${width} (page is ${document.documentElement.scrollWidth} px wide)`,
        )
      }
      if (offenders.length === 0) offenders.push(`the page is ${document.documentElement.scrollWidth} px wide at ${width} px`)
    }

    // 2. Cut text: any visible text outside the screen's width or outside a box that clips it.
    const walker = document.createTreeWalker(document.body, NodeFilter.SHOW_TEXT)
    const reported = new Set<Element>()
    for (let node = walker.nextNode(); node; node = walker.nextNode()) {
      const el = node.parentElement
      if (!el || !node.textContent?.trim() || reported.has(el) || ['SCRIPT', 'STYLE', 'NOSCRIPT', 'TEMPLATE', 'OPTION'].includes(el.tagName) || !visible(el))
        continue
      const range = document.createRange()
      range.selectNodeContents(node)
      const rects = [...range.getClientRects()].filter((rect) => rect.width > 0 && rect.height > 0)
      if (rects.length === 0) continue
      let cut: string | null = null
      // What a scroll container holds is reachable by scrolling it: from there on, the scroller's
      // own box is what must fit (the screen, and any box that clips it).
      let shown: { left: number; right: number; top: number; bottom: number }[] = rects
      for (let ancestor: Element | null = el; ancestor && ancestor !== document.documentElement && !cut; ancestor = ancestor.parentElement) {
        if (visuallyHidden(ancestor)) break
        if (ancestor === document.body || !clips(ancestor)) continue
        const box = ancestor.getBoundingClientRect()
        if (scrolls(ancestor)) {
          shown = [box]
          continue
        }
        for (const rect of shown) {
          if (rect.right > box.right + SLACK || rect.left < box.left - SLACK || rect.bottom > box.bottom + SLACK || rect.top < box.top - SLACK) {
            cut = `is cut by ${describe(ancestor).split(' "')[0]} (text ${Math.round(rect.left)}–${Math.round(rect.right)} × ${Math.round(rect.top)}–${Math.round(rect.bottom)}, box ${Math.round(box.left)}–${Math.round(box.right)} × ${Math.round(box.top)}–${Math.round(box.bottom)})`
            break
          }
        }
      }
      // Past the screen's edge: cut off where nothing scrolls there (a fixed panel, a clipped page);
      // where the page itself scrolls sideways, the first check has named the culprit already.
      if (!cut && !pageScrolls) {
        for (const rect of shown) {
          if (rect.right > width + SLACK || rect.left < -SLACK)
            cut = `runs past the screen's edge (${Math.round(rect.left)}–${Math.round(rect.right)} px of ${width})`
        }
      }
      if (cut && !visuallyHiddenChain(el)) {
        reported.add(el)
        offenders.push(`${describe(el)} ${cut}`)
      }
    }
    return offenders

    function visuallyHiddenChain(el: Element | null): boolean {
      for (let node = el; node && node !== document.body; node = node.parentElement) if (visuallyHidden(node)) return true
      return false
    }
  }, width)
}

/** The page's `h1` elements' texts (a page has exactly one). */
export function mainHeadings(page: Page): Promise<string[]> {
  return page.locator('h1').evaluateAll((headings) => headings.map((h) => (h.textContent ?? '').trim()))
}
