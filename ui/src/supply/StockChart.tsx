import type { Config, Data, Layout } from 'plotly.js'
import { useMemo } from 'react'
import { Plot } from '../components/Plot'
import { formatNumber } from '../format'
import { chartSeries } from './format'
import type { SupplyProduct } from './types'
import { useInView } from './useInView'

const WIDTH = 140
const HEIGHT = 44

const layout: Partial<Layout> = {
  width: WIDTH,
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
 * dotted). Drawn once the line scrolls into view.
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
  const label =
    `Stock du matin de ${product.name} : ` +
    product.days.map((d) => formatNumber(d.current, 2)).join(', ') +
    ` ; sans les livraisons : ${product.days.map((d) => formatNumber(d.baseline, 2)).join(', ')}`
  return (
    <div ref={ref} role="img" aria-label={label} data-testid="stock-chart" style={{ width: WIDTH, height: HEIGHT }}>
      {visible ? <Plot data={data} layout={layout} config={config} /> : null}
    </div>
  )
}
