import { Anchor, Group, Paper, Select, Stack, Text, Title } from '@mantine/core'
import { useMemo, useState } from 'react'
import { formatMonthYear } from '../format'
import type { Order } from '../types'
import { exportPath, invoicedMonths } from './model'

/**
 * The producer's export of a month's invoices and credit notes (PRODUCT
 * §16): a zip of the Factur-X PDFs, their XML and the sales journal, for
 * its approved e-invoicing platform and its accountant.
 */
export function InvoiceExport({ orders }: { orders: readonly Order[] }) {
  const months = useMemo(() => invoicedMonths(orders), [orders])
  const [month, setMonth] = useState<string | null>(null)
  const chosen = month ?? months[0] ?? null
  if (months.length === 0) return null
  return (
    <Paper withBorder p="md">
      <Stack gap="xs">
        <Title order={2} size="h4">
          Export comptable
        </Title>
        <Text size="sm">
          Factures et avoirs au format Factur-X, avec leur XML et le journal des ventes, pour votre plateforme de
          facturation électronique et votre comptable.
        </Text>
        <Group align="end">
          <Select
            label="Mois des livraisons facturées"
            data={months.map((m) => ({ value: m, label: formatMonthYear(m) }))}
            value={chosen}
            onChange={setMonth}
            allowDeselect={false}
            w={220}
          />
          {chosen ? (
            <Anchor href={exportPath(chosen)} download>
              Télécharger l'export de {formatMonthYear(chosen)}
            </Anchor>
          ) : null}
        </Group>
      </Stack>
    </Paper>
  )
}
