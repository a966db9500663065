import { Group, Text } from '@mantine/core'
import { type CellTone, TONE_COLORS, TONE_LABELS } from './rows'

/** The legend of the cells' colours, under the grid. */
export function ToneLegend() {
  return (
    <Group gap="md" mt="xs" aria-label="Légende des cases">
      {(Object.keys(TONE_LABELS) as Exclude<CellTone, 'none'>[]).map((tone) => (
        <Group key={tone} gap={6} wrap="nowrap">
          <span
            aria-hidden
            style={{
              display: 'inline-block',
              width: 14,
              height: 14,
              borderRadius: 3,
              border: '1px solid var(--mantine-color-gray-4)',
              background: TONE_COLORS[tone],
            }}
          />
          <Text size="xs" c="dimmed">
            {TONE_LABELS[tone]}
          </Text>
        </Group>
      ))}
    </Group>
  )
}
