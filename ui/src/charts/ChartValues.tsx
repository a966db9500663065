import { Accordion, Stack, Table, Text } from '@mantine/core'
import { ChartValuesTable } from './ChartValuesTable'
import type { ChartText } from './values'

/** The French texts of the charts' values. */
export const CHART_VALUES_TEXTS = { show: 'Voir les valeurs' } as const

/**
 * A chart's text alternative, under the chart (charts/values.ts): its
 * summary, shown, then its values as a table behind a "Voir les valeurs"
 * disclosure (Mantine's Accordion: a button with aria-expanded, the table
 * in the region it controls), named "Voir les valeurs : {name}" so that two
 * charts on a screen are told apart.
 */
export function ChartValues({ text, name }: { text: ChartText; name: string }) {
  return (
    <Stack gap={4}>
      <Text size="sm" c="dimmed">
        {text.summary}
      </Text>
      <Accordion chevronPosition="left" variant="default">
        <Accordion.Item value="values">
          {/* Named after what it shows, its visible text first (WCAG 2.5.3). */}
          <Accordion.Control aria-label={`${CHART_VALUES_TEXTS.show} : ${name}`}>
            {CHART_VALUES_TEXTS.show}
          </Accordion.Control>
          <Accordion.Panel>
            <Table.ScrollContainer minWidth={320} type="native">
              <ChartValuesTable text={text} />
            </Table.ScrollContainer>
          </Accordion.Panel>
        </Accordion.Item>
      </Accordion>
    </Stack>
  )
}
