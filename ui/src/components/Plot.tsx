// The thin wrapper over the chart library (uPlot, PRODUCT §20 "Charts"):
// a chart said as a ChartSpec (./chart: categories, series, French values),
// drawn on a canvas by ./uplot, a chunk of its own (about 20 KB as sent)
// fetched only when the chart comes within 200 px of the viewport; a
// skeleton holds the chart's place meanwhile. The chart follows its
// place's width, is drawn again when its spec changes and destroyed when
// the component goes. A canvas says nothing to a screen reader: every
// chart sits in a role="img" named by its summary, its values as a table
// beside it (charts/ChartValues).
import { Skeleton } from '@mantine/core'
import { type CSSProperties, useEffect, useRef, useState } from 'react'
import { useInView } from '../supply/useInView'
import type { ChartSpec } from './chart'

type Library = typeof import('./uplot')

let library: Promise<Library> | null = null

/** Loads the chart library once, in its own chunk. */
export function loadChartLibrary(): Promise<Library> {
  library ??= import('./uplot')
  return library
}

export interface PlotProps {
  /** The chart; keep it stable between renders (useMemo). */
  chart: ChartSpec
  className?: string
  style?: CSSProperties
}

/** Draws a chart once it nears the viewport; a skeleton until then. */
export function Plot({ chart, className, style }: PlotProps) {
  const [ref, near] = useInView<HTMLDivElement>()
  const canvas = useRef<HTMLDivElement>(null)
  const [drawn, setDrawn] = useState(false)

  useEffect(() => {
    const place = ref.current
    const element = canvas.current
    if (!near || !place || !element) return
    let alive = true
    let figure: import('./uplot').Drawn | null = null
    let observer: ResizeObserver | null = null
    const width = () => chart.width ?? Math.max(place.clientWidth, 120)
    loadChartLibrary()
      .then((lib) => {
        if (!alive) return
        figure = lib.draw(element, chart, width())
        if (!figure) return
        setDrawn(true)
        if (chart.width === undefined && typeof ResizeObserver !== 'undefined') {
          let last = width()
          observer = new ResizeObserver(() => {
            const now = width()
            if (now !== last) figure?.resize((last = now))
          })
          observer.observe(place)
        }
      })
      .catch((err: unknown) => console.error('chart:', err))
    return () => {
      alive = false
      observer?.disconnect()
      figure?.destroy()
    }
  }, [ref, near, chart])

  // Until drawn, the place takes the chart's size so the page does not jump.
  const size: CSSProperties = { width: chart.width, minHeight: chart.height }
  return (
    <div ref={ref} className={className} style={{ position: 'relative', ...size, ...style }} data-drawn={drawn}>
      <div ref={canvas} />
      {drawn ? null : (
        <Skeleton
          aria-hidden
          data-testid="chart-skeleton"
          radius="sm"
          style={{ position: 'absolute', inset: 0, height: chart.height }}
        />
      )}
    </div>
  )
}
