import { Button, Group, Text } from '@mantine/core'
import { formatMonthYear } from '../format'
import type { Month } from './period'

/** Previous/next period (half the span) and "Aujourd'hui" (the current month first), with the period shown. */
export function PeriodControls({
  months,
  onPrevious,
  onNext,
  onToday,
}: {
  months: readonly Month[]
  onPrevious: () => void
  onNext: () => void
  onToday: () => void
}) {
  const first = months[0]
  const last = months[months.length - 1]
  return (
    <Group gap="xs" role="group" aria-label="Période">
      <Button variant="default" size="compact-md" onClick={onPrevious} aria-label="Période précédente">
        ‹
      </Button>
      <Button variant="default" size="compact-md" onClick={onToday}>
        Aujourd'hui
      </Button>
      <Button variant="default" size="compact-md" onClick={onNext} aria-label="Période suivante">
        ›
      </Button>
      {first && last ? (
        <Text size="sm" c="dimmed" data-testid="planner-period">
          {formatMonthYear(first)} – {formatMonthYear(last)}
        </Text>
      ) : null}
    </Group>
  )
}
