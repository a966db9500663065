import { Stack, Text } from '@mantine/core'
import type { Icon } from '@tabler/icons-react'

/** A navigation item's content: its icon over its label, on one line at a size that fits a phone. */
export function NavItemContent({ icon: ItemIcon, label }: { icon: Icon; label: string }) {
  return (
    <Stack gap={2} align="center" justify="center">
      <ItemIcon size={22} stroke={1.75} aria-hidden="true" />
      <Text component="span" fz={12} fw={600} lh={1.2} style={{ whiteSpace: 'nowrap' }}>
        {label}
      </Text>
    </Stack>
  )
}
