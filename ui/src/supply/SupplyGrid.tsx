import { Badge, Stack, Table, Text, Tooltip, UnstyledButton } from '@mantine/core'
import { stickyColumn } from '../components/sticky'
import { formatLongDay, formatNumber } from '../format'
import type { SupplySelection } from '../store/supply'
import { LABELS, atRiskText, dayHeaderLines, incomingLabel, riskColor, riskLabel } from './format'
import { StockChart } from './StockChart'
import type { SupplyProduct, SupplyProjection } from './types'

export interface SupplyGridProps {
  projection: SupplyProjection
  /** The rows, in the order shown (see order.ts). */
  products: readonly SupplyProduct[]
  selected: SupplySelection | null
  onSelect: (product: string, date: string) => void
  /**
   * Opens a product's detail from its name (on a phone, where the detail is
   * a sheet); absent, the name is plain text.
   */
  onOpenProduct?: (product: string) => void
}

/**
 * A day's column, in pixels: its heading on two lines ("lun." above
 * "16/11"), its cell a button of 52 pixels (2 of padding each side), so
 * that the 8 days of a high-density screen fit at 1440 px beside the
 * detail (issue 37: 5 of 8 did, at 84 pixels each).
 */
export const DAY_COLUMN = 56
/** The product's, sales' and stock's columns together, at their narrowest. */
const FIXED_COLUMNS = 360

const STICKY_COLUMN = stickyColumn()
const STICKY_CORNER = stickyColumn({ header: true })

/**
 * Products by day (PRODUCT §2): per line the average daily sales, the stock
 * chart, and per day the incoming quantity on the colour of its risk. The
 * grid scrolls in its own box, its header and products' column in place
 * (sticky) whichever way it moves.
 */
export function SupplyGrid({ projection, products, selected, onSelect, onOpenProduct }: SupplyGridProps) {
  return (
    <Table.ScrollContainer
      minWidth={FIXED_COLUMNS + projection.dates.length * DAY_COLUMN}
      maxHeight="70vh"
      type="native"
    >
      <Table
        stickyHeader
        withTableBorder
        withColumnBorders
        verticalSpacing={4}
        horizontalSpacing="xs"
        aria-label="Grille des stocks"
      >
        <Table.Thead>
          <Table.Tr>
            <Table.Th style={STICKY_CORNER}>{LABELS.product}</Table.Th>
            <Table.Th ta="right">{LABELS.sales}</Table.Th>
            <Table.Th>{LABELS.stock}</Table.Th>
            {projection.dates.map((date) => {
              const [weekday, day] = dayHeaderLines(date)
              // Read and hovered as its full date ("lundi 16 novembre 2026").
              const long = formatLongDay(date)
              return (
                <Table.Th
                  key={date}
                  ta="center"
                  px={2}
                  w={DAY_COLUMN}
                  fw={date === projection.today ? 800 : 600}
                  c={date === projection.today ? 'green.8' : undefined}
                  title={long}
                  aria-label={long}
                  style={{ whiteSpace: 'nowrap' }}
                >
                  <span style={{ display: 'block' }}>{weekday}</span> <span style={{ display: 'block' }}>{day}</span>
                </Table.Th>
              )
            })}
          </Table.Tr>
        </Table.Thead>
        <Table.Tbody>
          {products.map((product) => {
            const name = (
              <Text size="sm" fw={600}>
                {product.name}{' '}
                <Text span c="dimmed" size="xs">
                  ({product.unit})
                </Text>
              </Text>
            )
            return (
              <Table.Tr key={product.product} data-product={product.product}>
                <Table.Td style={STICKY_COLUMN}>
                  <Stack gap={2}>
                    {onOpenProduct ? (
                      <UnstyledButton
                        onClick={() => onOpenProduct(product.product)}
                        aria-haspopup="dialog"
                        td="underline"
                      >
                        {name}
                      </UnstyledButton>
                    ) : (
                      name
                    )}
                    {product.atRisk ? (
                      <Tooltip label={atRiskText(product)} multiline w={260}>
                        <Badge
                          color="red"
                          variant="light"
                          size="xs"
                          w="fit-content"
                          aria-label={`${LABELS.atRisk} : ${atRiskText(product)}`}
                        >
                          {LABELS.atRisk}
                        </Badge>
                      </Tooltip>
                    ) : null}
                  </Stack>
                </Table.Td>
                <Table.Td ta="right">
                  <Text size="sm" style={{ whiteSpace: 'nowrap' }}>
                    {formatNumber(product.averageDailySales, 2)} {product.unit}
                  </Text>
                </Table.Td>
                <Table.Td p={0}>
                  <StockChart product={product} />
                </Table.Td>
                {product.days.map((day) => {
                  const isSelected = selected?.product === product.product && selected.date === day.date
                  const incoming = incomingLabel(day.delivered, day.deliveries.length)
                  const color = riskColor(day.risk)
                  return (
                    <Table.Td key={day.date} p={2}>
                      <UnstyledButton
                        onClick={() => onSelect(product.product, day.date)}
                        aria-pressed={isSelected}
                        aria-label={
                          `${product.name}, ${formatLongDay(day.date)} : ${riskLabel(day.risk)}, ` +
                          `stock du matin ${formatNumber(day.morningStock, 2)} ${product.unit}` +
                          (incoming ? `, livraisons ${incoming} ${product.unit}` : '')
                        }
                        data-risk={day.risk}
                        w="100%"
                        h={40}
                        ta="center"
                        bg={`var(--mantine-color-${color}-light)`}
                        style={{
                          borderRadius: 'var(--mantine-radius-sm)',
                          outline: isSelected ? `2px solid var(--mantine-color-${color}-filled)` : undefined,
                          outlineOffset: -2,
                        }}
                      >
                        {/* "+125,25" in a smaller type, to keep within the column. */}
                        <Text size={incoming.length > 5 ? 'xs' : 'sm'} fw={600} c={`${color}.9`}>
                          {incoming}
                        </Text>
                      </UnstyledButton>
                    </Table.Td>
                  )
                })}
              </Table.Tr>
            )
          })}
        </Table.Tbody>
      </Table>
    </Table.ScrollContainer>
  )
}
