// uPlot (MIT, about 20 KB as sent) and its small style sheet: the chart
// library, in a chunk of its own that ./Plot imports when a chart nears the
// viewport; nothing else imports it. draw makes a chart of a spec
// (./chart) in an element.
import uPlot from 'uplot'
import 'uplot/dist/uPlot.min.css'
import './uplot.css'
import { type ChartSpec, chartData, chartOptions } from './chart'

const bars = (opts: Parameters<NonNullable<typeof uPlot.paths.bars>>[0]) => uPlot.paths.bars!(opts)

/** A chart drawn: resized to a new width, destroyed when its component goes. */
export interface Drawn {
  resize(width: number): void
  destroy(): void
}

/** Draws spec into element at width; null where no canvas draws (jsdom). */
export function draw(element: HTMLElement, spec: ChartSpec, width: number): Drawn | null {
  if (!document.createElement('canvas').getContext('2d')) return null
  const chart = new uPlot(chartOptions(spec, width, bars), chartData(spec), element)
  return {
    resize: (w) => chart.setSize({ width: w, height: spec.height }),
    destroy: () => chart.destroy(),
  }
}
