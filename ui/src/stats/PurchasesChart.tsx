// The statistics card of the dashboard (PRODUCT §2): an area chart of the
// month's commitments ("achats prévus") and done deliveries ("achats
// réalisés") over 17 months from 4 months back, summed by the daemon (`GET
// /api/stats/purchases`, issue 42), its values as text under it
// (ChartValues); then the progression statistics (ProgressionSection).
import { Card, Divider, Group, Stack, Text, Title } from '@mantine/core'
import type { Config, Data, Layout } from 'plotly.js'
import { useEffect, useMemo } from 'react'
import { ChartValues } from '../charts/ChartValues'
import { purchasesText } from '../charts/values'
import { Plot } from '../components/Plot'
import { dayOf, formatEUR } from '../format'
import { useUser } from '../store/hooks'
import { loadPurchases, usePurchases } from '../store/lists'
import { ProgressionSection } from './ProgressionSection'
import { SERIES, emptySeries } from './purchases'
import { de } from '../grammar'

const CHART_HEIGHT = 300
const CHART_CONFIG: Partial<Config> = {
  displaylogo: false,
  responsive: true,
  modeBarButtonsToRemove: [
    'select2d',
    'lasso2d',
    'autoScale2d',
    'toImage',
    'zoom2d',
    'pan2d',
    'zoomIn2d',
    'zoomOut2d',
    'resetScale2d',
  ],
}

/** "2026-11-01" → "nov. 2026". */
function shortMonth(month: string): string {
  const [y, m] = month.split('-').map(Number)
  return new Intl.DateTimeFormat('fr-FR', { month: 'short', year: 'numeric', timeZone: 'UTC' }).format(
    new Date(Date.UTC(y, m - 1, 1)),
  )
}

export function PurchasesChart() {
  const user = useUser()
  const figures = usePurchases()
  const today = dayOf(new Date())
  const userId = user?._id
  // Read on each visit of the dashboard: a 304 while unchanged.
  useEffect(() => {
    if (userId) void loadPurchases()
  }, [userId])
  const series = useMemo(
    () =>
      figures
        ? { months: [...figures.months], planned: [...figures.planned], done: [...figures.done] }
        : emptySeries(today),
    [figures, today],
  )

  const data = useMemo<Data[]>(() => {
    const x = series.months.map(shortMonth)
    const trace = (name: string, y: number[], color: string, fill: string): Data => ({
      type: 'scatter',
      mode: 'lines+markers',
      name,
      x,
      y,
      fill: 'tozeroy',
      fillcolor: fill,
      line: { color, width: 2, shape: 'linear' },
      marker: { size: 5, color },
      hovertemplate: '%{x} : %{y:,.2f} €<extra>%{fullData.name}</extra>',
    })
    return [
      trace(SERIES.planned, series.planned, '#1c7ed6', 'rgba(28,126,214,0.15)'),
      trace(SERIES.done, series.done, '#2f9e44', 'rgba(47,158,68,0.35)'),
    ]
  }, [series])

  const layout = useMemo<Partial<Layout>>(() => {
    const now = shortMonth(series.months[4] ?? today)
    const max = Math.max(0, ...series.planned, ...series.done)
    const empty = max === 0
    return {
      height: CHART_HEIGHT,
      autosize: true,
      // French numbers: decimal comma, thin space between thousands.
      separators: ', ',
      margin: { l: 72, r: 36, t: 24, b: 24 },
      paper_bgcolor: 'rgba(0,0,0,0)',
      plot_bgcolor: 'rgba(0,0,0,0)',
      font: { family: 'system-ui, -apple-system, "Segoe UI", Roboto, sans-serif', size: 12, color: '#495057' },
      legend: { orientation: 'h', x: 0.5, xanchor: 'center', y: -0.18, yanchor: 'top' },
      hovermode: 'x unified',
      xaxis: { type: 'category', fixedrange: true, showgrid: false },
      yaxis: {
        ticksuffix: ' €',
        tickformat: empty || max >= 10 ? ',.0f' : ',.2f',
        rangemode: 'tozero',
        // Without any figure, a fixed scale rather than plotly's 0–1 default.
        range: empty ? [0, 1000] : undefined,
        fixedrange: true,
        gridcolor: '#e9ecef',
      },
      shapes: [
        {
          type: 'line',
          xref: 'x',
          yref: 'paper',
          x0: now,
          x1: now,
          y0: 0,
          y1: 1,
          line: { color: '#adb5bd', dash: 'dot', width: 1 },
        },
      ],
      annotations: [
        {
          xref: 'x',
          yref: 'paper',
          x: now,
          y: 1,
          text: 'ce mois-ci',
          showarrow: false,
          yanchor: 'bottom',
          font: { size: 11, color: '#868e96' },
        },
        ...(empty
          ? [
              {
                xref: 'paper' as const,
                yref: 'paper' as const,
                x: 0.5,
                y: 0.55,
                text: 'Aucun engagement ni livraison sur la période',
                showarrow: false,
                font: { size: 14, color: '#868e96' },
              },
            ]
          : []),
      ],
    }
  }, [series, today])

  const text = useMemo(() => purchasesText(series), [series])
  const totalPlanned = series.planned.reduce((a, b) => a + b, 0)
  const totalDone = series.done.reduce((a, b) => a + b, 0)
  const shop = user?.type === 'distributor'

  return (
    <Card withBorder radius="md" padding="lg">
      <Stack gap="xs">
        <Group justify="space-between" align="flex-end">
          <Stack gap={2}>
            <Title order={2} size="h3">
              Statistiques
            </Title>
            <Text size="sm" c="dimmed">
              {shop
                ? 'Par mois : vos engagements auprès des producteurs (achats prévus) et vos livraisons reçues (achats réalisés).'
                : 'Par mois : vos engagements auprès des magasins (achats prévus) et vos livraisons effectuées (achats réalisés).'}
            </Text>
          </Stack>
          <Group gap="lg">
            <Stack gap={0} align="flex-end">
              <Text size="xs" c="dimmed">
                Prévus sur 17 mois
              </Text>
              <Text fw={700} data-testid="total-planned">
                {formatEUR(totalPlanned)}
              </Text>
            </Stack>
            <Stack gap={0} align="flex-end">
              <Text size="xs" c="dimmed">
                Réalisés sur 17 mois
              </Text>
              <Text fw={700} data-testid="total-done">
                {formatEUR(totalDone)}
              </Text>
            </Stack>
          </Group>
        </Group>
        <div
          role="img"
          aria-label={`Achats prévus et réalisés par mois, ${de(shortMonth(series.months[0] ?? today))} à ${shortMonth(series.months.at(-1) ?? today)}`}
          data-testid="purchases-chart"
        >
          <Plot data={data} layout={layout} config={CHART_CONFIG} style={{ width: '100%', height: CHART_HEIGHT }} />
        </div>
        <ChartValues text={text} name="achats prévus et réalisés par mois" />
        <Divider my="xs" />
        <ProgressionSection />
      </Stack>
    </Card>
  )
}
