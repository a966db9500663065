// The benches' probe of when a screen shows (slowline.bench.ts,
// yearline.bench.ts), installed in the page before any script.

/**
 * At every frame, the first time the selector shows an element with a size:
 * the time since the navigation started into window.__shown — read from the
 * document's timeline, which the pinned clock leaves alone (Playwright's
 * clock replaces performance.now with its own, counted from its install).
 */
export function watch({ selector, scrollTo }: { selector: string; scrollTo?: string }) {
  const w = window as unknown as { __shown?: number }
  let scrolled = false
  const tick = () => {
    if (scrollTo && !scrolled) {
      const target = document.querySelector(scrollTo)
      if (target) {
        target.scrollIntoView({ block: 'center' })
        scrolled = true
      }
    }
    const el = document.querySelector(selector)
    if (el) {
      const box = el.getBoundingClientRect()
      if (box.width > 0 && box.height > 0 && getComputedStyle(el).visibility !== 'hidden') {
        w.__shown = Number(document.timeline.currentTime)
        return
      }
    }
    requestAnimationFrame(tick)
  }
  requestAnimationFrame(tick)
}
