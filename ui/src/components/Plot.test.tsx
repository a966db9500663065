import { act, screen, waitFor } from '@testing-library/react'
import type { Config, Data } from 'plotly.js'
import fr from 'plotly.js-locales/fr'
import { beforeEach, describe, expect, it, vi } from 'vitest'
import { renderWithProviders } from '../test/render'
import { Plot } from './Plot'

// The chart library's chunk (./plotly), as Plot imports it dynamically.
const plotly = vi.hoisted(() => ({
  loads: 0,
  react: vi.fn<(...args: unknown[]) => Promise<void>>(async () => undefined),
  purge: vi.fn(),
}))
vi.mock('./plotly', () => {
  plotly.loads++
  return { default: { react: plotly.react, purge: plotly.purge }, LOCALE: 'fr' }
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

const data: Data[] = [{ type: 'scatter', x: ['nov. 2026', 'déc. 2026'], y: [1.5, 2.25] }]
const layout = { height: 300 }
// A caller's config asking for the mode bar: Plot never shows it.
const config: Partial<Config> = { responsive: true, displayModeBar: true, modeBarButtonsToRemove: ['lasso2d'] }

beforeEach(() => {
  observed = []
  plotly.react.mockClear()
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
  it('shows a skeleton and loads nothing until the chart nears the viewport', async () => {
    renderWithProviders(<Plot data={data} layout={layout} config={config} style={{ width: '100%', height: 300 }} />)
    expect(screen.getByTestId('chart-skeleton')).toBeInTheDocument()
    await new Promise((r) => setTimeout(r, 50))
    expect(plotly.loads).toBe(0)
    expect(plotly.react).not.toHaveBeenCalled()

    act(() => enter())
    await waitFor(() => expect(plotly.react).toHaveBeenCalledTimes(1))
    expect(plotly.loads).toBe(1)
    await waitFor(() => expect(screen.queryByTestId('chart-skeleton')).not.toBeInTheDocument())
  })

  it('draws in French, without the mode bar, keeping the rest of the config', async () => {
    renderWithProviders(<Plot data={data} layout={layout} config={config} />)
    act(() => enter())
    await waitFor(() => expect(plotly.react).toHaveBeenCalled())
    const [element, drawnData, drawnLayout, drawnConfig] = plotly.react.mock.calls[0] as [
      HTMLElement,
      Data[],
      object,
      Partial<Config>,
    ]
    expect(element).toBeInstanceOf(HTMLDivElement)
    expect(element.style.height).toBe('300px') // the figure's place, held while loading
    expect(drawnData).toBe(data)
    expect(drawnLayout).toBe(layout)
    expect(drawnConfig).toMatchObject({
      locale: 'fr',
      displayModeBar: false,
      displaylogo: false,
      responsive: true,
      modeBarButtonsToRemove: ['lasso2d'],
    })
  })

  it('uses the French locale of plotly.js-locales: months, decimal comma', () => {
    expect(fr.name).toBe('fr')
    expect(fr.format.months.slice(9)).toEqual(['Octobre', 'Novembre', 'Décembre'])
    expect(fr.format.decimal).toBe(',')
    expect(fr.format.thousands).toBe(' ')
  })
})
