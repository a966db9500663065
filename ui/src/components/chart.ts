// What a chart of the interface draws (PRODUCT §20 "Charts"), said once for
// the chart library (uPlot, drawn by ./Plot through ./uplot): categories
// along x (months, days, already in French), one or more series of numbers,
// each a line, an area or bars, and how the values read (euros or plain
// numbers, in French). chartOptions turns it into uPlot's options; it is
// pure and imports uPlot's types only, so that the library's code stays in
// its own chunk. The values' text alternative is charts/values.ts.
import type uPlot from 'uplot'
import { formatEUR, formatNumber } from '../format'

/** One series of a chart. */
export interface ChartSeries {
  /** Its name, in the legend and in the hover values. */
  name: string
  /** One value per category; null where there is none. */
  values: readonly (number | null)[]
  color: string
  /** A line, a line filled down to zero, or bars side by side with the other bar series. */
  kind: 'line' | 'area' | 'bars'
  /** The area's colour (kind 'area'). */
  fill?: string
  /** A dotted line. */
  dotted?: boolean
  /** A dot on each value, of this diameter in pixels. */
  points?: number
  width?: number
}

/** A chart: categories along x, series of values up the y axis from zero. */
export interface ChartSpec {
  /** The categories, in French ("nov. 2026", "24/11"). */
  labels: readonly string[]
  /** What the categories are ("Mois", "Jour"), first in the legend with the hovered one. */
  xName: string
  series: readonly ChartSeries[]
  height: number
  /** A fixed width; else the width of the chart's place, followed when it changes. */
  width?: number
  /** How values read on the axis, in the legend and when hovered. */
  unit: 'EUR' | 'number'
  /** A small chart: no axes, no legend, nothing on hover. */
  bare?: boolean
  /** The y axis' width in pixels (its longest value). */
  axisWidth?: number
  /** A dotted vertical line at a category, named above the plot ("ce mois-ci"). */
  marker?: { at: number; label: string }
}

/** The interface's font (theme.ts) and greys, as the canvas needs them. */
export const CHART_FONT = '12px system-ui, -apple-system, "Segoe UI", Roboto, sans-serif'
const TEXT = '#495057'
const GRID = '#e9ecef'
const MARKER = '#adb5bd'
const MARKER_TEXT = '#868e96'

/** The y axis without any value: a fixed scale, not a flat 0–0. */
export const EMPTY_MAX = 1000

/** Whether every value of every series is 0 or none. */
export function isEmpty(spec: ChartSpec): boolean {
  return spec.series.every((s) => s.values.every((v) => !v))
}

/** The top of the y axis: the largest value rounded up to a round figure, with a little room above it. */
export function niceMax(max: number): number {
  if (!(max > 0)) return EMPTY_MAX
  const raw = max * 1.05
  const power = 10 ** Math.floor(Math.log10(raw))
  const step = [1, 1.2, 1.5, 2, 2.5, 3, 4, 5, 6, 8, 10].find((s) => s * power >= raw) ?? 10
  return step * power
}

/** A value as the chart reads it: "1 234,50 €", "12,5". */
export function formatValue(value: number | null | undefined, unit: ChartSpec['unit']): string {
  if (value === null || value === undefined) return '—'
  return unit === 'EUR' ? formatEUR(value) : formatNumber(value)
}

/** The y axis' ticks: "1 200 €" (with cents under 10 €), "12,5". */
export function formatTicks(ticks: readonly number[], unit: ChartSpec['unit'], max: number): string[] {
  const digits = max >= 10 || ticks.every(Number.isInteger) ? 0 : 2
  const number = new Intl.NumberFormat('fr-FR', { minimumFractionDigits: digits, maximumFractionDigits: digits })
  return ticks.map((v) => (unit === 'EUR' ? `${number.format(v)} €` : number.format(v)))
}

/** The library's bar paths, passed in by the chunk that loads it (./uplot). */
export type BarPaths = (opts: { size: [number, number]; align: -1 | 0 | 1; gap: number }) => uPlot.Series.PathBuilder

/** The data uPlot draws: the categories' indexes along x, then each series' values. */
export function chartData(spec: ChartSpec): uPlot.AlignedData {
  return [spec.labels.map((_, i) => i), ...spec.series.map((s) => s.values.map((v) => v ?? null))]
}

/** uPlot's options for the spec at a width. */
export function chartOptions(spec: ChartSpec, width: number, bars: BarPaths): uPlot.Options {
  const max = Math.max(0, ...spec.series.flatMap((s) => s.values.map((v) => v ?? 0)))
  const top = niceMax(max)
  const barSeries = spec.series.filter((s) => s.kind === 'bars')
  const withBars = barSeries.length > 0
  const last = spec.labels.length - 1
  const label = (i: number) => (Number.isInteger(i) ? (spec.labels[i] ?? '') : '')
  const series: uPlot.Series[] = [
    { label: spec.xName, value: (_u, i) => (i === null || i === undefined ? '' : label(i)) },
    ...spec.series.map((s): uPlot.Series => {
      // Two bar series: one left of the category, one right of it.
      const bar = barSeries.indexOf(s)
      const align: -1 | 0 | 1 = barSeries.length < 2 ? 0 : bar === 0 ? -1 : 1
      return {
        label: s.name,
        stroke: s.color,
        width: s.width ?? (s.kind === 'bars' ? 0 : 2),
        fill: s.kind === 'area' ? (s.fill ?? s.color) : s.kind === 'bars' ? s.color : undefined,
        dash: s.dotted ? [2, 4] : undefined,
        points: { show: s.kind !== 'bars' && !!s.points, size: s.points, fill: s.color },
        paths: s.kind === 'bars' ? bars({ size: [barSeries.length < 2 ? 0.6 : 0.4, 48], align, gap: 1 }) : undefined,
        value: (_u, v) => formatValue(v, spec.unit),
      }
    }),
  ]
  const marker = spec.marker
  return {
    width,
    height: spec.height,
    padding: spec.bare ? [2, 2, 2, 2] : [marker ? 20 : 12, 32, 0, 0],
    // Bars need half a category of room on either side.
    scales: {
      x: { time: false, range: withBars ? [-0.5, last + 0.5] : [0, Math.max(last, 1)] },
      y: { range: [0, top] },
    },
    series,
    axes: spec.bare
      ? [{ show: false }, { show: false }]
      : [
          {
            font: CHART_FONT,
            stroke: TEXT,
            grid: { show: false },
            ticks: { show: false },
            // Whole categories only, as many as fit.
            incrs: [1, 2, 3, 4, 6, 12],
            space: 48,
            values: (_u, splits) => splits.map(label),
          },
          {
            font: CHART_FONT,
            stroke: TEXT,
            size: spec.axisWidth ?? 72,
            grid: { stroke: GRID, width: 1 },
            ticks: { show: false },
            values: (_u, splits) => formatTicks(splits, spec.unit, max),
          },
        ],
    legend: { show: !spec.bare, live: true },
    cursor: spec.bare
      ? { show: false }
      : { y: false, drag: { x: false, y: false, setScale: false }, points: { show: !withBars, size: 7 } },
    hooks: marker
      ? {
          draw: [
            (u: uPlot) => {
              const x = u.valToPos(marker.at, 'x', true)
              const ctx = u.ctx
              const ratio = window.devicePixelRatio || 1
              ctx.save()
              ctx.strokeStyle = MARKER
              ctx.lineWidth = ratio
              ctx.setLineDash([2 * ratio, 3 * ratio])
              ctx.beginPath()
              ctx.moveTo(x, u.bbox.top)
              ctx.lineTo(x, u.bbox.top + u.bbox.height)
              ctx.stroke()
              ctx.setLineDash([])
              ctx.fillStyle = MARKER_TEXT
              ctx.font = CHART_FONT.replace('12px', `${Math.round(11 * ratio)}px`)
              ctx.textAlign = 'center'
              ctx.textBaseline = 'bottom'
              ctx.fillText(marker.label, x, u.bbox.top - 4 * ratio)
              ctx.restore()
            },
          ],
        }
      : undefined,
  }
}
