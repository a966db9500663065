import { Group, Stack, Text, TextInput, Title } from '@mantine/core'
import type { ReactNode } from 'react'
import { PeriodControls } from './PeriodControls'
import type { Month } from './period'
import type { Tab, TabCounts } from './rows'
import { StatusTabs } from './StatusTabs'

/** The planner's header (PRODUCT §2): title, fuzzy product search, period buttons and status tabs. */
export function PlannerHeader({
  title,
  subtitle,
  query,
  onQuery,
  months,
  onPrevious,
  onNext,
  onToday,
  tab,
  counts,
  onTab,
  filters,
}: {
  title: ReactNode
  subtitle?: ReactNode
  query: string
  onQuery: (query: string) => void
  months: readonly Month[]
  onPrevious: () => void
  onNext: () => void
  onToday: () => void
  tab: Tab
  counts: TabCounts
  onTab: (tab: Tab) => void
  /** The filters by family, label and distance, beside the search. */
  filters?: ReactNode
}) {
  return (
    <Stack gap="xs">
      <Group justify="space-between" align="flex-end" gap="sm">
        <Stack gap={0} style={{ flex: 1 }}>
          <Title order={1}>{title}</Title>
          {subtitle ? <Text c="dimmed">{subtitle}</Text> : null}
        </Stack>
        {filters}
        <TextInput
          label="Rechercher un produit"
          placeholder="Nom du produit"
          type="search"
          value={query}
          onChange={(e) => onQuery(e.currentTarget.value)}
          w={260}
        />
      </Group>
      <Group justify="space-between" gap="sm">
        <PeriodControls months={months} onPrevious={onPrevious} onNext={onNext} onToday={onToday} />
        <StatusTabs value={tab} counts={counts} onChange={onTab} />
      </Group>
    </Stack>
  )
}
