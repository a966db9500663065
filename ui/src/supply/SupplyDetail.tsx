import { Badge, Group, Stack, Table, Text, Title } from '@mantine/core'
import { formatLongDay } from '../format'
import { useProducers } from '../store/hooks'
import { LABELS, atRiskText, formatSupplyQuantity, producerName, riskColor, riskLabel } from './format'
import type { Incoming, SupplyDay, SupplyProduct, SupplyProjection } from './types'

export interface SupplyDetailProps {
  projection: SupplyProjection
  product: SupplyProduct
  day: SupplyDay
}

/**
 * The side detail of a cell (PRODUCT §2): the date, the platform order proposed
 * for the next day in the product's unit, and the table of assumptions.
 */
export function SupplyDetail({ projection, product, day }: SupplyDetailProps) {
  const producers = useProducers()
  const unit = product.unit
  const q = (value: number) => formatSupplyQuantity(value, unit)
  const deliveryRows = (label: string, list: readonly Incoming[], testId: string) => {
    const byName = list
      .map((d) => ({ name: producerName(d.producer, producers, projection), quantity: d.quantity }))
      .sort((a, b) => a.name.localeCompare(b.name, 'fr'))
    const total = list.reduce((sum, d) => sum + d.quantity, 0)
    return [
      <Table.Tr key={label} data-testid={testId}>
        <Table.Th scope="row">{label}</Table.Th>
        <Table.Td ta="right">{list.length ? q(total) : LABELS.none}</Table.Td>
      </Table.Tr>,
      ...byName.map((d) => (
        <Table.Tr key={`${label}-${d.name}`}>
          <Table.Td pl="lg">
            <Text size="sm" c="dimmed">
              {d.name}
            </Text>
          </Table.Td>
          <Table.Td ta="right">
            <Text size="sm" c="dimmed">
              {q(d.quantity)}
            </Text>
          </Table.Td>
        </Table.Tr>
      )),
    ]
  }
  return (
    <Stack gap="sm" aria-label="Détail de la case sélectionnée" role="region">
      <Stack gap={2}>
        <Title order={3} size="h4">
          {formatLongDay(day.date)}
        </Title>
        <Group gap="xs">
          <Text fw={600}>
            {product.name} ({unit})
          </Text>
          <Badge color={riskColor(day.risk)} variant="light">
            {riskLabel(day.risk)}
          </Badge>
        </Group>
      </Stack>
      <Stack gap={0}>
        <Text size="sm" c="dimmed">
          {LABELS.order} ({formatLongDay(day.nextDate)})
        </Text>
        <Text size="xl" fw={800} data-testid="proposed-order">
          {q(day.proposedOrder)}
        </Text>
      </Stack>
      <Table withTableBorder verticalSpacing={4} captionSide="top">
        <Table.Caption>{LABELS.assumptions}</Table.Caption>
        <Table.Tbody>
          <Table.Tr data-testid="morning-stock">
            <Table.Th scope="row">{LABELS.morningStock}</Table.Th>
            <Table.Td ta="right">{q(day.morningStock)}</Table.Td>
          </Table.Tr>
          {deliveryRows(LABELS.deliveries, day.deliveries, 'deliveries')}
          {deliveryRows(LABELS.nextDeliveries, day.nextDeliveries, 'next-deliveries')}
          <Table.Tr data-testid="need">
            <Table.Th scope="row">{LABELS.need}</Table.Th>
            <Table.Td ta="right">{q(day.need)}</Table.Td>
          </Table.Tr>
          <Table.Tr data-testid="next-need">
            <Table.Th scope="row">{LABELS.nextNeed}</Table.Th>
            <Table.Td ta="right">{q(day.nextNeed)}</Table.Td>
          </Table.Tr>
        </Table.Tbody>
      </Table>
      {product.atRisk ? (
        <Text size="sm" c="red.8">
          {atRiskText(product)}
        </Text>
      ) : null}
    </Stack>
  )
}
