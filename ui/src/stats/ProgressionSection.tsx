// "Statistiques de progression" in the statistics card (PRODUCT §2
// "Statistics"): a month to compare, a chart of the 12 months ending with it
// beside the same months a year earlier, and under it the table of the
// month's purchases (shop) or sales (producer), in total and per product,
// against the month before and the same month a year earlier.
import { Button, Group, Select, Stack, Table, Text, Title } from '@mantine/core'
import { useEffect, useId, useMemo, useState } from 'react'
import { ChartValues } from '../charts/ChartValues'
import { progressionText } from '../charts/values'
import type { ChartSpec } from '../components/chart'
import { Plot } from '../components/Plot'
import { stickyColumn } from '../components/sticky'
import { formatEUR, formatMonthYear } from '../format'
import { useProducts, useUser } from '../store/hooks'
import { loadProgression, useProgression } from '../store/progression'
import {
  type ChangeRow,
  defaultMonth,
  formatChange,
  monthLabel,
  ofMonth,
  progressionTable,
  selectableMonths,
  yearOnYearSeries,
} from './progression'

const CHART_HEIGHT = 240

// The products' column stays in place when the table scrolls sideways (a
// phone); it keeps its row's stripe and highlight (sticky.css).
const STICKY_COLUMN = stickyColumn()
const STICKY_CORNER = stickyColumn({ header: true })

/** "oct. 26": short enough for 12 months on a phone. */
function shortMonth(month: string): string {
  const [y, m] = month.split('-').map(Number)
  return new Intl.DateTimeFormat('fr-FR', { month: 'short', year: '2-digit', timeZone: 'UTC' }).format(
    new Date(Date.UTC(y, m - 1, 1)),
  )
}

function Change({ value }: { value: number | null }) {
  const color = value === null || value === 0 ? undefined : value > 0 ? 'green.9' : 'red.9'
  return (
    <Text span c={color} fw={value === null ? undefined : 600} style={{ whiteSpace: 'nowrap' }}>
      {formatChange(value)}
    </Text>
  )
}

function Row({ row, total }: { row: ChangeRow; total?: boolean }) {
  const money = (v: number | null) => (v === null ? '—' : formatEUR(v))
  return (
    <Table.Tr data-row={row.key} fw={total ? 700 : undefined}>
      <Table.Th scope="row" fw={total ? 700 : 500} style={STICKY_COLUMN}>
        {row.label}
      </Table.Th>
      <Table.Td ta="right">{money(row.value)}</Table.Td>
      <Table.Td ta="right">{money(row.previous)}</Table.Td>
      <Table.Td ta="right">
        <Change value={row.monthOverMonth} />
      </Table.Td>
      <Table.Td ta="right">{money(row.lastYear)}</Table.Td>
      <Table.Td ta="right">
        <Change value={row.yearOverYear} />
      </Table.Td>
    </Table.Tr>
  )
}

export function ProgressionSection() {
  const user = useUser()
  const products = useProducts()
  const { data, status } = useProgression()
  const [picked, setPicked] = useState<string | null>(null)
  const captionId = useId()
  const userId = user?._id
  const shop = user?.type === 'distributor'

  useEffect(() => {
    if (userId) void loadProgression()
  }, [userId])

  const names = useMemo(() => new Map(products.map((p) => [p._id, p.name])), [products])
  const month = data && picked && data.months.includes(picked) ? picked : data ? defaultMonth(data) : null
  const table = useMemo(
    () => (data && month ? progressionTable(data, month, (id) => names.get(id) ?? id) : null),
    [data, month, names],
  )
  const what = shop ? 'achats' : 'ventes'

  const chart = useMemo(() => {
    if (!data || !month) return null
    const s = yearOnYearSeries(data, month)
    const spec: ChartSpec = {
      labels: s.months.map(shortMonth),
      xName: 'Mois',
      series: [
        { name: `${what} un an plus tôt`, values: s.yearBefore, kind: 'bars', color: '#adb5bd' },
        { name: shop ? 'achats réalisés' : 'ventes réalisées', values: s.current, kind: 'bars', color: '#2f9e44' },
      ],
      height: CHART_HEIGHT,
      unit: 'EUR',
      axisWidth: 64,
    }
    return { spec, from: s.months[0], to: s.months.at(-1), text: progressionText(s, shop) }
  }, [data, month, what, shop])

  return (
    <Stack gap="xs" component="section" aria-labelledby="progression-title">
      <Group justify="space-between" align="flex-end">
        <Stack gap={2}>
          <Title order={3} size="h4" id="progression-title">
            Progression de vos {what}
          </Title>
          <Text size="sm" c="dimmed">
            {shop
              ? 'Vos livraisons reçues, au prix facturé : évolution sur un mois et sur un an, au total et par produit.'
              : 'Vos livraisons effectuées, au prix facturé : évolution sur un mois et sur un an, au total et par produit.'}
          </Text>
        </Stack>
        {data && month ? (
          <Select
            label="Mois comparé"
            data={selectableMonths(data).map((m) => ({ value: m, label: monthLabel(data, m) }))}
            value={month}
            onChange={(value) => value && setPicked(value)}
            allowDeselect={false}
            w={220}
            comboboxProps={{ withinPortal: true }}
          />
        ) : null}
      </Group>
      {status === 'error' && !data ? (
        <Group gap="sm">
          <Text size="sm" c="red.9">
            La progression n'a pas pu être chargée.
          </Text>
          <Button
            size="compact-sm"
            variant="light"
            aria-label="Réessayer de charger la progression"
            onClick={() => void loadProgression()}
          >
            Réessayer
          </Button>
        </Group>
      ) : null}
      {!data && status !== 'error' ? (
        <Text size="sm" c="dimmed">
          Chargement de la progression
        </Text>
      ) : null}
      {chart ? (
        <>
          <div
            role="img"
            aria-label={`${shop ? 'Achats réalisés' : 'Ventes réalisées'} par mois ${ofMonth(formatMonthYear(chart.from ?? ''))} à ${formatMonthYear(chart.to ?? '')}, à côté des mêmes mois un an plus tôt`}
            data-testid="progression-chart"
          >
            <Plot chart={chart.spec} style={{ width: '100%' }} />
          </div>
          <ChartValues text={chart.text} name={`${shop ? 'achats réalisés' : 'ventes réalisées'} par mois`} />
        </>
      ) : null}
      {table ? (
        table.products.length === 0 && table.total.value === 0 && !table.total.previous && !table.total.lastYear ? (
          <Text size="sm" c="dimmed">
            Aucune livraison sur ces mois : la progression s'affichera après vos premières livraisons.
          </Text>
        ) : (
          <>
            {/* The caption above the box the table scrolls in, so it never scrolls out of view on a phone. */}
            <Text size="sm" c="dimmed" id={captionId}>
              {`${shop ? 'Achats' : 'Ventes'} ${ofMonth(monthLabel(data!, table.month))} comparé${shop ? 's' : 'es'} au mois précédent et au même mois un an plus tôt (« — » : pas de base de comparaison)`}
            </Text>
            {/* A box that scrolls takes the focus, named by the caption, so that the keyboard scrolls it (axe: scrollable-region-focusable). */}
            <Table.ScrollContainer
              minWidth={640}
              maxHeight="70vh"
              type="native"
              tabIndex={0}
              role="region"
              aria-labelledby={captionId}
            >
              <Table striped highlightOnHover stickyHeader aria-labelledby={captionId} data-testid="progression-table">
                <Table.Thead>
                  <Table.Tr>
                    <Table.Th scope="col" style={STICKY_CORNER}>
                      Produit
                    </Table.Th>
                    <Table.Th scope="col" ta="right">
                      {formatMonthYear(table.month)}
                    </Table.Th>
                    <Table.Th scope="col" ta="right">
                      {table.previousMonth ? formatMonthYear(table.previousMonth) : 'Mois précédent'}
                    </Table.Th>
                    <Table.Th scope="col" ta="right">
                      Sur un mois
                    </Table.Th>
                    <Table.Th scope="col" ta="right">
                      {table.lastYearMonth ? formatMonthYear(table.lastYearMonth) : 'Un an plus tôt'}
                    </Table.Th>
                    <Table.Th scope="col" ta="right">
                      Sur un an
                    </Table.Th>
                  </Table.Tr>
                </Table.Thead>
                <Table.Tbody>
                  <Row row={table.total} total />
                  {table.products.map((row) => (
                    <Row key={row.key} row={row} />
                  ))}
                </Table.Tbody>
              </Table>
            </Table.ScrollContainer>
          </>
        )
      ) : null}
    </Stack>
  )
}
