import { act, screen, waitFor } from '@testing-library/react'
import { beforeEach, describe, expect, it, vi } from 'vitest'
import { renderWithProviders } from '../test/render'
import type { ChartSpec } from './chart'
import { Plot } from './Plot'

// The chart library's chunk (./uplot), as Plot imports it dynamically.
const library = vi.hoisted(() => ({
  loads: 0,
  /** Whether a canvas draws (not where the library answers null). */
  canvas: true,
  draw: vi.fn(),
  resize: vi.fn(),
  destroy: vi.fn(),
}))
vi.mock('./uplot', () => {
  library.loads++
  return {
    draw: (...args: unknown[]) => {
      library.draw(...args)
      return library.canvas ? { resize: library.resize, destroy: library.destroy } : null
    },
  }
})

/** An IntersectionObserver the test moves: `enter()` brings the observed elements near the viewport. */
let observed: { callback: IntersectionObserverCallback; elements: Element[] }[] = []
function enter() {
  for (const o of observed)
    o.callback(
      o.elements.map((target) => ({ target, isIntersecting: true }) as IntersectionObserverEntry),
      {} as IntersectionObserver,
    )
}

const chart: ChartSpec = {
  labels: ['nov. 2026', 'déc. 2026'],
  xName: 'Mois',
  series: [{ name: 'Achats prévus', values: [1.5, 2.25], kind: 'area', color: '#1c7ed6' }],
  height: 300,
  unit: 'EUR',
}

beforeEach(() => {
  observed = []
  library.draw.mockClear()
  library.destroy.mockClear()
  library.canvas = true
  vi.stubGlobal(
    'IntersectionObserver',
    class {
      entry: { callback: IntersectionObserverCallback; elements: Element[] }
      constructor(callback: IntersectionObserverCallback) {
        this.entry = { callback, elements: [] }
        observed.push(this.entry)
      }
      observe(element: Element) {
        this.entry.elements.push(element)
      }
      disconnect() {
        this.entry.elements = []
      }
    },
  )
})

describe('Plot', () => {
  it('shows a skeleton of the chart’s height and loads nothing until the chart nears the viewport', async () => {
    renderWithProviders(<Plot chart={chart} style={{ width: '100%' }} />)
    const skeleton = screen.getByTestId('chart-skeleton')
    expect(skeleton.style.height).toBe('300px') // the chart's place, held while loading
    await new Promise((r) => setTimeout(r, 50))
    expect(library.loads).toBe(0)
    expect(library.draw).not.toHaveBeenCalled()

    act(() => enter())
    await waitFor(() => expect(library.draw).toHaveBeenCalledTimes(1))
    expect(library.loads).toBe(1)
    await waitFor(() => expect(screen.queryByTestId('chart-skeleton')).not.toBeInTheDocument())
    expect(document.querySelector('[data-drawn="true"]')).not.toBeNull()
  })

  it('draws the spec it is given, at its fixed width or its place’s, and destroys the chart when it goes', async () => {
    for (const [spec, width] of [
      [chart, 120], // jsdom lays nothing out: the place's width is 0, the least width is kept
      [{ ...chart, width: 116 }, 116],
    ] as const) {
      library.draw.mockClear()
      library.destroy.mockClear()
      const { unmount } = renderWithProviders(<Plot chart={spec} />)
      act(() => enter())
      await waitFor(() => expect(library.draw).toHaveBeenCalledTimes(1))
      const [element, drawnSpec, drawnWidth] = library.draw.mock.calls[0] as [HTMLElement, ChartSpec, number]
      expect(element).toBeInstanceOf(HTMLDivElement)
      expect(drawnSpec).toBe(spec)
      expect(drawnWidth).toBe(width)
      unmount()
      expect(library.destroy).toHaveBeenCalledTimes(1)
      observed = []
    }
  })

  it('keeps the skeleton where no canvas draws', async () => {
    library.canvas = false
    renderWithProviders(<Plot chart={chart} />)
    act(() => enter())
    await waitFor(() => expect(library.draw).toHaveBeenCalledTimes(1))
    expect(screen.getByTestId('chart-skeleton')).toBeInTheDocument()
    expect(document.querySelector('[data-drawn="true"]')).toBeNull()
  })
})
