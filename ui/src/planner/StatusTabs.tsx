import { Tabs } from '@mantine/core'
import { TABS, type Tab, type TabCounts, tabLabel } from './rows'

/** The status tabs "À VALIDER (n)", "ENGAGÉS (n)", "TOUS (n)" (PRODUCT §2). */
export function StatusTabs({
  value,
  counts,
  onChange,
}: {
  value: Tab
  counts: TabCounts
  onChange: (tab: Tab) => void
}) {
  return (
    <Tabs value={value} onChange={(v) => v && onChange(v as Tab)} aria-label="Statut des besoins">
      <Tabs.List>
        {TABS.map((tab) => (
          <Tabs.Tab key={tab.value} value={tab.value}>
            {tabLabel(tab.value, counts[tab.value])}
          </Tabs.Tab>
        ))}
      </Tabs.List>
    </Tabs>
  )
}
