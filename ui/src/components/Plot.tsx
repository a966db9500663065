// A thin wrapper over plotly.js (the basic bundle: scatter, bar, pie),
// loaded on first use so that only screens with a chart download it
// (PRODUCT §20). Plotly.react draws and redraws in place; the figure is
// purged when the component goes away.
import type { Config, Data, Layout } from 'plotly.js'
import { type CSSProperties, useEffect, useRef } from 'react'

type PlotlyModule = typeof import('plotly.js-basic-dist-min')

let plotly: Promise<PlotlyModule> | null = null
let loaded: PlotlyModule | null = null

/** Loads plotly.js once, in its own chunk. */
export function loadPlotly(): Promise<PlotlyModule> {
  plotly ??= import('plotly.js-basic-dist-min').then((m) => {
    const module = ((m as { default?: PlotlyModule }).default ?? m) as PlotlyModule
    loaded = module
    return module
  })
  return plotly
}

export interface PlotProps {
  /** Traces; keep the array stable between renders (useMemo). */
  data: Data[]
  layout?: Partial<Layout>
  config?: Partial<Config>
  className?: string
  style?: CSSProperties
}

/** Draws a plotly figure into a div. */
export function Plot({ data, layout, config, className, style }: PlotProps) {
  const ref = useRef<HTMLDivElement>(null)

  useEffect(() => {
    const element = ref.current
    if (!element) return
    let alive = true
    loadPlotly()
      .then((Plotly) => (alive ? Plotly.react(element, data, layout, config) : undefined))
      .catch((err: unknown) => console.error('plotly:', err))
    return () => {
      alive = false
    }
  }, [data, layout, config])

  useEffect(() => {
    const element = ref.current
    return () => {
      if (element && loaded) loaded.purge(element)
    }
  }, [])

  return <div ref={ref} className={className} style={style} />
}
