import { Table } from '@mantine/core'
import type { ChartText } from './values'

/**
 * A chart's values as a table (charts/values.ts): its caption, "Mois" or
 * "Jour" and a header per series, a row per month or day headed by it, so
 * that each value is read with its series and its month.
 */
export function ChartValuesTable({ text }: { text: ChartText }) {
  return (
    <Table captionSide="top" withTableBorder striped fz="sm" data-testid="chart-values">
      <Table.Caption ta="left">{text.caption}</Table.Caption>
      <Table.Thead>
        <Table.Tr>
          <Table.Th scope="col">{text.rowHeader}</Table.Th>
          {text.columns.map((column) => (
            <Table.Th key={column} scope="col" ta="right">
              {column}
            </Table.Th>
          ))}
        </Table.Tr>
      </Table.Thead>
      <Table.Tbody>
        {text.rows.map((row) => (
          <Table.Tr key={row.label}>
            <Table.Th scope="row" fw={500}>
              {row.label}
            </Table.Th>
            {row.values.map((value, i) => (
              <Table.Td key={text.columns[i] ?? i} ta="right" style={{ whiteSpace: 'nowrap' }}>
                {value}
              </Table.Td>
            ))}
          </Table.Tr>
        ))}
      </Table.Tbody>
    </Table>
  )
}
