// When the page has done its own loading (issue 42): the service worker's
// precache, a few hundred kilobytes, must not compete on a slow line with
// the screen the user waits for. whenQuiet resolves once the document has
// loaded, no file or answer has come in for a while (the browser's
// resource timing: each one that completes starts the wait again), and the
// browser is idle; at the latest after `most`, so that the worker is
// always registered in the end.

/** What whenQuiet waits for, in milliseconds. */
export const QUIET = { calm: 1500, most: 30_000 } as const

/** What whenQuiet reads of the window. */
export interface QuietWindow {
  document: { readyState: DocumentReadyState }
  addEventListener(type: 'load', listener: () => void, options: { once: true }): void
  setTimeout(handler: () => void, ms: number): number
  clearTimeout(id: number | undefined): void
  requestIdleCallback?: (callback: () => void, options?: { timeout: number }) => number
  PerformanceObserver?: typeof PerformanceObserver
}

/** Resolves once the page is loaded, quiet for `calm` ms and idle; at the latest after `most` ms. */
export function whenQuiet(win: QuietWindow = window, { calm, most } = QUIET): Promise<void> {
  return new Promise((resolve) => {
    let done = false
    let timer: number | undefined
    let observer: PerformanceObserver | undefined
    const finish = () => {
      if (done) return
      done = true
      win.clearTimeout(timer)
      win.clearTimeout(latest)
      observer?.disconnect()
      resolve()
    }
    const idle = () => (win.requestIdleCallback ? win.requestIdleCallback(finish, { timeout: calm }) : finish())
    const restart = () => {
      win.clearTimeout(timer)
      timer = win.setTimeout(idle, calm)
    }
    const latest = win.setTimeout(finish, most)
    const loaded = () => {
      if (done) return
      restart()
      try {
        observer = win.PerformanceObserver ? new win.PerformanceObserver(restart) : undefined
        observer?.observe({ type: 'resource' })
      } catch {
        // No resource timing: the calm after the load alone.
      }
    }
    if (win.document.readyState === 'complete') loaded()
    else win.addEventListener('load', loaded, { once: true })
  })
}
