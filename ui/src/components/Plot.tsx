// A thin wrapper over plotly.js (the basic bundle: scatter, bar, pie, with
// its French locale: ./plotly), the chart library of PRODUCT §20. Its ~300 KB
// (brotli) come in a chunk of their own, fetched only when a chart comes
// within 200 px of the viewport; a skeleton holds the chart's place
// meanwhile. Plotly.react draws and redraws in place, in French (months,
// decimal comma), without its mode bar (its buttons are English and none
// is of use here); the figure is purged when the component goes away.
import { Skeleton } from '@mantine/core'
import type { Config, Data, Layout } from 'plotly.js'
import { type CSSProperties, useEffect, useState } from 'react'
import { useInView } from '../supply/useInView'

type PlotlyModule = typeof import('./plotly').default

let plotly: Promise<PlotlyModule> | null = null
let loaded: PlotlyModule | null = null
let locale = 'fr'

/** Loads plotly.js and its locale once, in their own chunk. */
export function loadPlotly(): Promise<PlotlyModule> {
  plotly ??= import('./plotly').then((m) => {
    loaded = m.default
    locale = m.LOCALE
    return m.default
  })
  return plotly
}

/** What every chart is drawn with, whatever the caller's config says. */
export const FIXED_CONFIG = { displayModeBar: false, displaylogo: false } as const satisfies Partial<Config>

export interface PlotProps {
  /** Traces; keep the array stable between renders (useMemo). */
  data: Data[]
  layout?: Partial<Layout>
  config?: Partial<Config>
  className?: string
  style?: CSSProperties
}

/** Draws a plotly figure into a div once it nears the viewport; a skeleton until then. */
export function Plot({ data, layout, config, className, style }: PlotProps) {
  const [ref, near] = useInView<HTMLDivElement>()
  const [drawn, setDrawn] = useState(false)

  useEffect(() => {
    const element = ref.current
    if (!near || !element) return
    let alive = true
    loadPlotly()
      .then(async (Plotly) => {
        if (!alive) return
        await Plotly.react(element, data, layout, { locale, ...config, ...FIXED_CONFIG })
        if (alive) setDrawn(true)
      })
      .catch((err: unknown) => console.error('plotly:', err))
    return () => {
      alive = false
    }
  }, [ref, near, data, layout, config])

  useEffect(() => {
    const element = ref.current
    return () => {
      if (element && loaded) loaded.purge(element)
    }
  }, [ref])

  // Until drawn, the div takes the figure's size so the page does not jump.
  const size: CSSProperties = { width: layout?.width, height: layout?.height }
  return (
    <div ref={ref} className={className} style={{ position: 'relative', ...size, ...style }} data-drawn={drawn}>
      {drawn ? null : (
        <Skeleton aria-hidden data-testid="chart-skeleton" radius="sm" style={{ position: 'absolute', inset: 0 }} />
      )}
    </div>
  )
}
