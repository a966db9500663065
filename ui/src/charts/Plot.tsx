// A thin wrapper over plotly.js (DESIGN §11: plotly.js-basic-dist-min, no
// react-plotly.js). Plotly is loaded on first use, so only the screens
// drawing a chart pay for it. Its prebuilt UMD file is served as a
// same-origin asset and run by a <script> element (allowed by the CSP's
// script-src 'self'): importing it as a module would make the bundler share
// its CommonJS interop helpers with the landing page's entry chunk.
import { Box, Loader, Text } from '@mantine/core'
import type { Config, Data, Layout } from 'plotly.js'
import plotlyUrl from 'plotly.js-basic-dist-min/plotly-basic.min.js?url'
import { type CSSProperties, useEffect, useRef, useState } from 'react'

type PlotlyModule = typeof import('plotly.js-basic-dist-min')

let plotly: Promise<PlotlyModule> | null = null

/** Loads plotly once; later calls share the same promise. A failed load may be retried. */
export function loadPlotly(): Promise<PlotlyModule> {
  if (!plotly) {
    plotly = new Promise<PlotlyModule>((resolve, reject) => {
      const loaded = (window as { Plotly?: PlotlyModule }).Plotly
      if (loaded) return resolve(loaded)
      const script = document.createElement('script')
      script.src = plotlyUrl
      script.async = true
      script.onload = () => {
        const Plotly = (window as { Plotly?: PlotlyModule }).Plotly
        if (Plotly) resolve(Plotly)
        else reject(new Error('plotly.js did not define window.Plotly'))
      }
      script.onerror = () => {
        script.remove()
        reject(new Error(`plotly.js could not be loaded from ${plotlyUrl}`))
      }
      document.head.appendChild(script)
    }).catch((err: unknown) => {
      plotly = null
      throw err
    })
  }
  return plotly
}

/** French number format for every chart: decimal comma, thin space between thousands. */
export const FRENCH_SEPARATORS = ', '

const BASE_CONFIG: Partial<Config> = {
  displaylogo: false,
  responsive: true,
  modeBarButtonsToRemove: ['select2d', 'lasso2d', 'autoScale2d', 'toImage'],
}

export interface PlotProps {
  data: Data[]
  layout?: Partial<Layout>
  config?: Partial<Config>
  /** What the chart shows, for screen readers. */
  label: string
  height?: number
  style?: CSSProperties
}

/**
 * Draws `data` with `layout`, redrawing (Plotly.react) when they change and
 * purging the plot when unmounted. Keep `data` and `layout` memoised.
 */
export function Plot({ data, layout, config, label, height = 320, style }: PlotProps) {
  const ref = useRef<HTMLDivElement>(null)
  const [status, setStatus] = useState<'loading' | 'ready' | 'error'>('loading')

  useEffect(() => {
    let live = true
    loadPlotly()
      .then((Plotly) => {
        const el = ref.current
        if (!live || !el) return
        return Plotly.react(
          el,
          data,
          { separators: FRENCH_SEPARATORS, height, autosize: true, ...layout },
          { ...BASE_CONFIG, ...config },
        ).then(() => {
          if (live) setStatus('ready')
        })
      })
      .catch((err: unknown) => {
        console.error('chart:', err)
        if (live) setStatus('error')
      })
    return () => {
      live = false
    }
  }, [data, layout, config, height])

  useEffect(() => {
    const el = ref.current
    return () => {
      if (el && plotly) void plotly.then((Plotly) => Plotly.purge(el)).catch(() => undefined)
    }
  }, [])

  return (
    <Box pos="relative" style={{ minHeight: height, ...style }}>
      <div ref={ref} role="img" aria-label={label} data-status={status} style={{ width: '100%', height }} />
      {status === 'loading' ? (
        <Loader size="sm" pos="absolute" top="45%" left="50%" aria-label="Chargement du graphique" />
      ) : null}
      {status === 'error' ? (
        <Text pos="absolute" top="45%" w="100%" ta="center" c="dimmed" size="sm">
          Le graphique n'a pas pu être affiché.
        </Text>
      ) : null}
    </Box>
  )
}
