import { ActionIcon, Popover, Stack, Text } from '@mantine/core'
import { IconTable } from '@tabler/icons-react'
import { useId } from 'react'
import { CHART_VALUES_TEXTS } from './ChartValues'
import { ChartValuesTable } from './ChartValuesTable'
import type { ChartText } from './values'

/**
 * A small chart's values (a line of a table, where a table of its own
 * would nest in the line): a small button "Voir les valeurs : {name}"
 * beside the chart opening a popover (a dialog, out of the table, Escape
 * closes it and gives the focus back) with the summary and the values'
 * table.
 */
export function ChartValuesPopover({ text, name }: { text: ChartText; name: string }) {
  const titleId = useId()
  return (
    <Popover position="bottom-end" withArrow shadow="md" trapFocus returnFocus withinPortal>
      <Popover.Target>
        <ActionIcon variant="subtle" color="gray" size="sm" aria-label={`${CHART_VALUES_TEXTS.show} : ${name}`}>
          <IconTable size={14} aria-hidden />
        </ActionIcon>
      </Popover.Target>
      <Popover.Dropdown aria-labelledby={titleId} maw={360}>
        <Stack gap="xs">
          <Text size="sm" id={titleId}>
            {text.summary}
          </Text>
          <ChartValuesTable text={text} />
        </Stack>
      </Popover.Dropdown>
    </Popover>
  )
}
