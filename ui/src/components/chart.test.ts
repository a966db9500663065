import type uPlot from 'uplot'
import { describe, expect, it, vi } from 'vitest'
import { type ChartSpec, EMPTY_MAX, chartData, chartOptions, formatTicks, formatValue, niceMax } from './chart'

// Intl's French: a narrow no-break space between thousands, a no-break space before €.
const fr = (s: string) => s.replace(/\u202f|\u00a0/g, ' ')

const purchases: ChartSpec = {
  labels: ['juil. 2026', 'août 2026', 'sept. 2026'],
  xName: 'Mois',
  series: [
    {
      name: 'Achats prévus',
      values: [1200, 0, 2345.5],
      kind: 'area',
      color: '#1c7ed6',
      fill: 'rgba(0,0,0,0.1)',
      points: 5,
    },
    { name: 'Achats réalisés', values: [800, null, 0], kind: 'area', color: '#2f9e44', points: 5 },
  ],
  height: 300,
  unit: 'EUR',
  marker: { at: 1, label: 'ce mois-ci' },
}

const bars = vi.fn(() => (() => null) as uPlot.Series.PathBuilder)

describe('niceMax', () => {
  it.each([
    [0, EMPTY_MAX],
    [-5, EMPTY_MAX],
    [2345.5, 2500],
    [950, 1000],
    [1000, 1200],
    [4.2, 5],
    [180, 200],
  ])('%s → %s', (max, top) => expect(niceMax(max)).toBe(top))
})

describe('formatValue and formatTicks', () => {
  it.each([
    [1234.5, 'EUR', '1 234,50 €'],
    [0, 'EUR', '0,00 €'],
    [12.5, 'number', '12,5'],
    [null, 'EUR', '—'],
  ] as const)('%s as %s → %s', (value, unit, text) => expect(fr(formatValue(value, unit))).toBe(text))

  it.each([
    [[0, 500, 1000, 1500], 'EUR', 1400, ['0 €', '500 €', '1 000 €', '1 500 €']],
    [[0, 2.5, 5], 'EUR', 4.2, ['0,00 €', '2,50 €', '5,00 €']],
    [[0, 1, 2], 'EUR', 1.5, ['0 €', '1 €', '2 €']],
    [[0, 50, 100], 'number', 80, ['0', '50', '100']],
  ] as const)('ticks %j (%s, max %s)', (ticks, unit, max, texts) =>
    expect(formatTicks(ticks, unit, max).map(fr)).toEqual(texts),
  )
})

describe('chartOptions', () => {
  it('draws the categories by index, each series’ values, none where there is none', () => {
    expect(chartData(purchases)).toEqual([
      [0, 1, 2],
      [1200, 0, 2345.5],
      [800, null, 0],
    ])
  })

  it('reads the x axis as the French categories and the y axis in euros from zero', () => {
    const o = chartOptions(purchases, 640, bars)
    expect(o.width).toBe(640)
    expect(o.height).toBe(300)
    expect(o.scales?.x).toMatchObject({ time: false, range: [0, 2] })
    expect(o.scales?.y?.range).toEqual([0, 2500])
    const [x, y] = o.axes!
    const u = {} as uPlot
    expect((x.values as (u: uPlot, s: number[]) => string[])(u, [0, 1, 2])).toEqual(purchases.labels)
    expect((y.values as (u: uPlot, s: number[]) => string[])(u, [0, 1000, 2000]).map(fr)).toEqual([
      '0 €',
      '1 000 €',
      '2 000 €',
    ])
  })

  it('names each series and says its hovered value in euros, the hovered month first', () => {
    const o = chartOptions(purchases, 640, bars)
    const u = {} as uPlot
    const [x, planned, done] = o.series
    expect(planned).toMatchObject({
      label: 'Achats prévus',
      stroke: '#1c7ed6',
      fill: 'rgba(0,0,0,0.1)',
      points: { show: true },
    })
    expect(done).toMatchObject({ label: 'Achats réalisés', fill: '#2f9e44' })
    expect(x.label).toBe('Mois')
    expect((x.value as (u: uPlot, v: number) => string)(u, 2)).toBe('sept. 2026')
    expect(fr((planned.value as (u: uPlot, v: number | null) => string)(u, 2345.5))).toBe('2 345,50 €')
    expect((done.value as (u: uPlot, v: number | null) => string)(u, null)).toBe('—')
    expect(o.legend).toMatchObject({ show: true, live: true })
    // Hovering shows values; dragging zooms nothing.
    expect(o.cursor).toMatchObject({ drag: { x: false, y: false, setScale: false } })
    expect(o.hooks?.draw).toHaveLength(1)
  })

  it('puts two bar series side by side, half a category of room at either end', () => {
    bars.mockClear()
    const spec: ChartSpec = {
      ...purchases,
      marker: undefined,
      series: purchases.series.map((s) => ({ ...s, kind: 'bars' as const })),
    }
    const o = chartOptions(spec, 640, bars)
    expect(o.scales?.x?.range).toEqual([-0.5, 2.5])
    expect(o.cursor?.points?.show).toBe(false) // no dot at the bars' top
    expect(bars.mock.calls.map((c) => (c as unknown as [{ align: number }])[0].align)).toEqual([-1, 1])
    expect(o.hooks).toBeUndefined()
  })

  it('keeps a fixed scale without any value, and a bare chart without axes, legend or hover', () => {
    const spec: ChartSpec = {
      ...purchases,
      series: purchases.series.map((s) => ({ ...s, values: s.values.map(() => 0) })),
      bare: true,
    }
    const o = chartOptions(spec, 116, bars)
    expect(o.scales?.y?.range).toEqual([0, EMPTY_MAX])
    expect(o.axes?.every((a) => a.show === false)).toBe(true)
    expect(o.legend?.show).toBe(false)
    expect(o.cursor?.show).toBe(false)
  })
})
