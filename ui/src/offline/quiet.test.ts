import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest'
import { whenQuiet } from './quiet'

/** A window whose load and resource timing the test moves. */
function fakeWindow(readyState: DocumentReadyState, idle: boolean) {
  let onLoad: (() => void) | undefined
  let onResource: (() => void) | undefined
  const win = {
    document: { readyState },
    addEventListener: (type: string, listener: () => void) => {
      if (type === 'load') onLoad = listener
    },
    setTimeout: (f: () => void, ms: number) => setTimeout(f, ms) as unknown as number,
    clearTimeout: (id: number | undefined) => clearTimeout(id),
    requestIdleCallback: idle ? (f: () => void) => setTimeout(f, 50) as unknown as number : undefined,
    PerformanceObserver: class {
      constructor(callback: () => void) {
        onResource = callback
      }
      observe() {}
      disconnect() {
        onResource = undefined
      }
    } as unknown as typeof PerformanceObserver,
  }
  return { win, load: () => onLoad?.(), resource: () => onResource?.() }
}

beforeEach(() => vi.useFakeTimers())
afterEach(() => vi.useRealTimers())

const calm = 1500
const most = 30_000

describe('whenQuiet', () => {
  it.each([
    // [the page, the browser idle, what happens (ms: a resource completes then, 'load': the document loads), when it resolves]
    ['loaded already, nothing comes', 'complete', false, [], calm],
    ['loaded already, then idle', 'complete', true, [], calm + 50],
    ['loading: the wait starts at load', 'loading', false, [1000, 'load'], 1000 + calm],
    ['each resource starts the wait again', 'complete', false, [1000, 2000, 3400], 3400 + calm],
    ['never quiet: at the latest', 'complete', false, Array.from({ length: 40 }, (_, i) => (i + 1) * 1000), most],
    ['never loaded: at the latest', 'loading', false, [], most],
  ] as const)('%s', async (_name, readyState, idle, events, expected) => {
    const { win, load, resource } = fakeWindow(readyState, idle)
    let resolvedAt = -1
    const start = Date.now()
    void whenQuiet(win, { calm, most }).then(() => (resolvedAt = Date.now() - start))
    let at = 0
    let i = 0
    // Events come at their times: a number is a resource completing; 'load' the document loading, at the previous number's time.
    for (const e of events) {
      if (e === 'load') {
        load()
        continue
      }
      await vi.advanceTimersByTimeAsync(e - at)
      at = e
      if (events[i + 1] !== 'load') resource()
      i++
    }
    await vi.advanceTimersByTimeAsync(most + 1000)
    expect(resolvedAt).toBe(expected)
  })
})
