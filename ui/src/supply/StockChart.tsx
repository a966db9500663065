import { Group } from '@mantine/core'
import type { Config, Data, Layout } from 'plotly.js'
import { useMemo } from 'react'
import { ChartValuesPopover } from '../charts/ChartValuesPopover'
import { stockText } from '../charts/values'
import { Plot } from '../components/Plot'
import { chartSeries } from './format'
import type { SupplyProduct } from './types'
import { useInView } from './useInView'
import { de } from '../grammar'

const WIDTH = 140
const HEIGHT = 44
/** The values' button beside the chart, in the same width. */
const BUTTON = 24
const PLOT_WIDTH = WIDTH - BUTTON

const layout: Partial<Layout> = {
  width: PLOT_WIDTH,
  height: HEIGHT,
  margin: { l: 2, r: 2, t: 4, b: 4 },
  showlegend: false,
  xaxis: { visible: false, fixedrange: true },
  yaxis: { visible: false, fixedrange: true, rangemode: 'tozero' },
  paper_bgcolor: 'rgba(0,0,0,0)',
  plot_bgcolor: 'rgba(0,0,0,0)',
}

const config: Partial<Config> = { staticPlot: true, displayModeBar: false }

/**
 * The small stock chart of a product line (PRODUCT §2): the morning stock with
 * the planned deliveries (green) and without the window's deliveries (grey,
 * dotted). Drawn once the line scrolls into view; its summary names it and
 * its values are a table behind the small button beside it
 * (charts/ChartValuesPopover: out of the grid's table, where a table of its
 * own would nest).
 */
export function StockChart({ product }: { product: SupplyProduct }) {
  const [ref, visible] = useInView<HTMLDivElement>()
  const data = useMemo<Data[]>(() => {
    const s = chartSeries(product)
    return [
      {
        x: s.x,
        y: s.baseline,
        type: 'scatter',
        mode: 'lines',
        name: 'Sans livraison',
        line: { color: '#adb5bd', width: 1.5, dash: 'dot' },
      },
      {
        x: s.x,
        y: s.current,
        type: 'scatter',
        mode: 'lines+markers',
        name: 'Avec livraisons',
        line: { color: '#2f9e44', width: 2 },
        marker: { size: 3 },
      },
    ]
  }, [product])
  const text = useMemo(() => stockText(product), [product])
  // The image is named by the chart's summary; its values are a table
  // behind the button beside it.
  return (
    <Group ref={ref} gap={0} wrap="nowrap" align="center" style={{ width: WIDTH, height: HEIGHT }}>
      <div role="img" aria-label={text.summary} data-testid="stock-chart" style={{ width: PLOT_WIDTH, height: HEIGHT }}>
        {visible ? <Plot data={data} layout={layout} config={config} /> : null}
      </div>
      <ChartValuesPopover text={text} name={`stock du matin ${de(product.name)}`} />
    </Group>
  )
}
