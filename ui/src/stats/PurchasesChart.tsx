// The statistics card of the dashboard (PRODUCT §2): an area chart of the
// month's commitments ("achats prévus") and done deliveries ("achats
// réalisés") over 17 months from 4 months back, summed by the daemon (`GET
// /api/stats/purchases`, issue 42), its values as text under it
// (ChartValues); then the progression statistics (ProgressionSection).
import { Card, Divider, Group, Stack, Text, Title } from '@mantine/core'
import { useEffect, useMemo } from 'react'
import { ChartValues } from '../charts/ChartValues'
import { purchasesText } from '../charts/values'
import type { ChartSpec } from '../components/chart'
import { Plot } from '../components/Plot'
import { dayOf, formatEUR } from '../format'
import { useUser } from '../store/hooks'
import { loadPurchases, usePurchases } from '../store/lists'
import { ProgressionSection } from './ProgressionSection'
import { SERIES, emptySeries } from './purchases'
import { de } from '../grammar'

const CHART_HEIGHT = 300

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

  const chart = useMemo<ChartSpec>(
    () => ({
      labels: series.months.map(shortMonth),
      xName: 'Mois',
      series: [
        {
          name: SERIES.planned,
          values: series.planned,
          kind: 'area',
          color: '#1c7ed6',
          fill: 'rgba(28,126,214,0.15)',
          points: 5,
        },
        {
          name: SERIES.done,
          values: series.done,
          kind: 'area',
          color: '#2f9e44',
          fill: 'rgba(47,158,68,0.35)',
          points: 5,
        },
      ],
      height: CHART_HEIGHT,
      unit: 'EUR',
      // The current month, 4 months from the first.
      marker: { at: 4, label: 'ce mois-ci' },
    }),
    [series],
  )
  const empty = series.planned.every((v) => v === 0) && series.done.every((v) => v === 0)

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
          style={{ position: 'relative' }}
        >
          <Plot chart={chart} style={{ width: '100%' }} />
          {empty ? (
            <Text
              size="sm"
              c="dimmed"
              ta="center"
              style={{ position: 'absolute', top: CHART_HEIGHT * 0.4, left: 0, right: 0, pointerEvents: 'none' }}
            >
              Aucun engagement ni livraison sur la période
            </Text>
          ) : null}
        </div>
        <ChartValues text={text} name="achats prévus et réalisés par mois" />
        <Divider my="xs" />
        <ProgressionSection />
      </Stack>
    </Card>
  )
}
