import { Button, Group, Stack, Text } from '@mantine/core'
import { IconChevronLeft, IconChevronRight } from '@tabler/icons-react'
import { DetailSheet } from '../components/DetailSheet'
import { SHEET, neighbourDay } from './detailDay'
import { StockChart } from './StockChart'
import { SupplyDetail } from './SupplyDetail'
import type { SupplyDay, SupplyProduct, SupplyProjection } from './types'

export interface SupplyDetailSheetProps {
  opened: boolean
  onClose: () => void
  projection: SupplyProjection
  product: SupplyProduct
  day: SupplyDay
  /** Shows another day of the same product. */
  onDay: (date: string) => void
}

/**
 * The supply screen's detail on a phone (issue 19 "Phone layouts"): a sheet
 * over the grid with the product's stock chart, the day's advice and its
 * assumptions (SupplyDetail), and buttons to the day before and after, so
 * the days are read without going back to the grid.
 */
export function SupplyDetailSheet({ opened, onClose, projection, product, day, onDay }: SupplyDetailSheetProps) {
  const previous = neighbourDay(projection.dates, day.date, -1)
  const next = neighbourDay(projection.dates, day.date, 1)
  return (
    <DetailSheet opened={opened} onClose={onClose} title={SHEET.title}>
      <Stack gap="md">
        <Group justify="space-between" wrap="nowrap">
          <Button
            variant="default"
            leftSection={<IconChevronLeft size={18} aria-hidden />}
            disabled={!previous}
            onClick={() => previous && onDay(previous)}
          >
            {SHEET.previous}
          </Button>
          <Button
            variant="default"
            rightSection={<IconChevronRight size={18} aria-hidden />}
            disabled={!next}
            onClick={() => next && onDay(next)}
          >
            {SHEET.next}
          </Button>
        </Group>
        <Group gap="sm" wrap="nowrap">
          <Text size="sm" c="dimmed">
            {SHEET.chart}
          </Text>
          <StockChart product={product} />
        </Group>
        <SupplyDetail projection={projection} product={product} day={day} />
      </Stack>
    </DetailSheet>
  )
}
