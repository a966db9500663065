// Vitest setup: jest-dom matchers, DOM cleanup, and the browser APIs jsdom lacks
// but Mantine uses (matchMedia, ResizeObserver, scrollIntoView), and a canvas that
// draws nothing (the charts').
import '@testing-library/jest-dom/vitest'
import { notifications } from '@mantine/notifications'
import { cleanup, configure } from '@testing-library/react'
import { afterEach, vi } from 'vitest'

// findBy*/waitFor wait up to 10 s: a loaded CI machine renders slowly.
configure({ asyncUtilTimeout: 10_000 })

afterEach(() => {
  cleanup()
  // The toast store is global: empty it so each test starts below the display limit.
  notifications.clean()
  notifications.cleanQueue()
  window.localStorage.clear()
})

Object.defineProperty(window, 'matchMedia', {
  writable: true,
  value: vi.fn().mockImplementation((query: string) => ({
    matches: false,
    media: query,
    onchange: null,
    addListener: vi.fn(),
    removeListener: vi.fn(),
    addEventListener: vi.fn(),
    removeEventListener: vi.fn(),
    dispatchEvent: vi.fn(),
  })),
})

class ResizeObserverStub {
  observe() {}
  unobserve() {}
  disconnect() {}
}
window.ResizeObserver = ResizeObserverStub
Element.prototype.scrollIntoView = () => {}
// No canvas draws here (jsdom would print "not implemented"): the charts keep their skeleton.
HTMLCanvasElement.prototype.getContext = () => null
window.scrollTo = () => {}
