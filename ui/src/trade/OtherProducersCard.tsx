import { Paper, Stack, Text } from '@mantine/core'
import { formatQuantity } from '../format'
import type { Unit } from '../types'
import { type NeedFigures, remainingFor } from './proposalForm'

/** The figures of a need this card reads. */
export interface OtherProducersNeed extends NeedFigures {
  readonly quantityAccepted: number
  readonly quantityProposed: number
}

/** What other producers hold on a need and what remains uncovered, seen by one producer. */
export function othersOf(need: OtherProducersNeed, producerId: string): { others: number; uncovered: number } {
  const own = remainingFor(need, producerId) - need.quantityAvailable
  const others = Math.round((need.quantityAccepted + need.quantityProposed - own) * 100) / 100
  return { others: Math.max(0, others), uncovered: Math.max(0, need.quantityAvailable) }
}

/** PRODUCT §2: the producer's "autres producteurs" card, with the remaining need not covered. */
export function OtherProducersCard({
  need,
  producerId,
  unit,
}: {
  need: OtherProducersNeed
  producerId: string
  unit: Unit
}) {
  const { others, uncovered } = othersOf(need, producerId)
  return (
    <Paper role="article" aria-label="Autres producteurs" withBorder p="sm" bg="var(--mantine-color-gray-0)">
      <Stack gap={4}>
        <Text fw={600}>Autres producteurs</Text>
        <Text size="sm">Engagé ou proposé par d'autres producteurs : {formatQuantity(others, unit)}</Text>
        <Text size="sm">Besoin restant non couvert : {formatQuantity(uncovered, unit)}</Text>
      </Stack>
    </Paper>
  )
}
