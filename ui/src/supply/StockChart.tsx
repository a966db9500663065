import { Group } from '@mantine/core'
import { useMemo } from 'react'
import { ChartValuesPopover } from '../charts/ChartValuesPopover'
import { stockText } from '../charts/values'
import type { ChartSpec } from '../components/chart'
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
  const chart = useMemo<ChartSpec>(() => {
    const s = chartSeries(product)
    return {
      labels: s.x,
      xName: 'Jour',
      series: [
        { name: 'Sans livraison', values: s.baseline, kind: 'line', color: '#adb5bd', width: 1.5, dotted: true },
        { name: 'Avec livraisons', values: s.current, kind: 'line', color: '#2f9e44', points: 3 },
      ],
      width: PLOT_WIDTH,
      height: HEIGHT,
      unit: 'number',
      bare: true,
    }
  }, [product])
  const text = useMemo(() => stockText(product), [product])
  // The image is named by the chart's summary; its values are a table
  // behind the button beside it.
  return (
    <Group ref={ref} gap={0} wrap="nowrap" align="center" style={{ width: WIDTH, height: HEIGHT }}>
      <div role="img" aria-label={text.summary} data-testid="stock-chart" style={{ width: PLOT_WIDTH, height: HEIGHT }}>
        {visible ? <Plot chart={chart} /> : null}
      </div>
      <ChartValuesPopover text={text} name={`stock du matin ${de(product.name)}`} />
    </Group>
  )
}
