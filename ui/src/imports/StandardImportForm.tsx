import { Alert, Button, Group, Select, SimpleGrid, Stack, Switch, Table, Text, TextInput } from '@mantine/core'
import { type FormEvent, useCallback, useEffect, useMemo, useState } from 'react'
import { formatMonthYear, formatQuantity } from '../format'
import { useFormState } from '../forms/useFormState'
import { currentMonth } from '../planner/period'
import { clearStandardImport, commitStandard, simulateStandard, useStandardImport } from '../store/imports'
import {
  addMonths,
  correctedTurnover,
  defaultStandardImport,
  MAX_STANDARD_MONTHS,
  monthsBetween,
  type StandardImportField,
  type StandardImportValues,
  validateStandardImport,
} from '../validation/standardImport'
import { ImportResultView } from './ImportResultView'
import { retainedTurnoverText } from './turnover'

/** Keeps digits, spaces and one decimal separator as the user types an amount. */
function filterAmount(value: string): string {
  const cleaned = value.replace(/[^\d\s,.]/g, '').replace('.', ',')
  const [head, ...rest] = cleaned.split(',')
  return rest.length ? `${head},${rest.join('')}` : head
}

/**
 * The standard import (PRODUCT §2, §5, §9; PRODUCT §14): the period and the
 * turnover give, through the platform's formula, a year of needs for every
 * product. "Simuler" previews the first three months; "Importer" writes
 * every month. A failed simulation returns silently to the form (PRODUCT §7).
 */
export function StandardImportForm({ now }: { now?: Date }) {
  const [current] = useState(() => currentMonth(now))
  const monthOptions = useMemo(
    () =>
      Array.from({ length: MAX_STANDARD_MONTHS + 12 }, (_, i) => {
        const value = addMonths(current, i)
        return { value, label: formatMonthYear(value) }
      }),
    [current],
  )
  const validate = useCallback((v: StandardImportValues) => validateStandardImport(v, current), [current])
  const form = useFormState<StandardImportValues, StandardImportField>(defaultStandardImport(current), validate)
  const { status, preview, request, result } = useStandardImport()
  const busy = status === 'busy'
  const [simulating, setSimulating] = useState(false)
  const [failure, setFailure] = useState<string | null>(null)
  useEffect(() => clearStandardImport, [])

  const v = form.values
  // Any change makes the preview or the last result stale.
  const change = <K extends keyof StandardImportValues>(
    field: K,
    value: StandardImportValues[K],
    opts?: { touch?: boolean },
  ) => {
    form.setValue(field, value, opts)
    if (preview || result) clearStandardImport()
  }
  const turnover = correctedTurnover(v)
  const months = v.start && v.end ? monthsBetween(v.start, v.end) : []

  const onSimulate = async (event: FormEvent) => {
    event.preventDefault()
    form.touchAll()
    if (!form.canSubmit || busy) return
    setFailure(null)
    setSimulating(true)
    await simulateStandard(turnover, months)
    setSimulating(false)
  }

  const onCommit = async () => {
    setFailure(null)
    const outcome = await commitStandard()
    if (!outcome.ok) setFailure(outcome.message)
  }

  const amountInput = (
    field: 'vegetableTurnover' | 'storeTurnover' | 'share' | 'correction',
    label: string,
    unit: string,
  ) => (
    <TextInput
      label={label}
      inputMode="decimal"
      rightSection={unit}
      value={v[field]}
      onChange={(e) => change(field, filterAmount(e.currentTarget.value))}
      onBlur={() => form.touch(field)}
      error={form.errorOf(field)}
    />
  )

  return (
    <Stack gap="md">
      <form onSubmit={onSimulate} noValidate aria-label="Import standard">
        <Stack gap="sm">
          <SimpleGrid cols={{ base: 1, sm: 2 }} spacing="sm">
            <Select
              label="Premier mois"
              data={monthOptions}
              value={v.start}
              onChange={(value) => change('start', value, { touch: true })}
              error={form.errorOf('start')}
              clearable
              clearButtonProps={{ 'aria-label': 'Effacer le premier mois' }}
              allowDeselect={false}
            />
            <Select
              label="Dernier mois"
              data={monthOptions}
              value={v.end}
              onChange={(value) => change('end', value, { touch: true })}
              error={form.errorOf('end')}
              clearable
              clearButtonProps={{ 'aria-label': 'Effacer le dernier mois' }}
              allowDeselect={false}
            />
          </SimpleGrid>
          <Switch
            label="Je connais mon CA fruits et légumes"
            checked={v.vegetableKnown}
            onChange={(e) => change('vegetableKnown', e.currentTarget.checked)}
          />
          <SimpleGrid cols={{ base: 1, sm: 2 }} spacing="sm">
            {v.vegetableKnown
              ? amountInput('vegetableTurnover', 'CA fruits et légumes annuel', '€')
              : amountInput('storeTurnover', 'CA annuel magasin', '€')}
            {v.vegetableKnown ? null : amountInput('share', 'Part des fruits et légumes', '%')}
            {amountInput('correction', 'Coefficient de correction', '%')}
          </SimpleGrid>
          <Group justify="space-between">
            <Text size="sm" c="dimmed">
              {retainedTurnoverText(turnover, months.length)}
            </Text>
            <Button type="submit" disabled={!form.canSubmit || busy}>
              {simulating ? 'en cours...' : 'Simuler'}
            </Button>
          </Group>
        </Stack>
      </form>

      {preview && request ? (
        <Stack gap="sm">
          <Text size="sm">
            Aperçu des trois premiers mois ({preview.length} produits). L'import écrira les {request.months.length}{' '}
            mois.
          </Text>
          <Table.ScrollContainer minWidth={420} mah={320}>
            <Table striped stickyHeader aria-label="Aperçu de l'import standard">
              <Table.Thead>
                <Table.Tr>
                  <Table.Th>Produit</Table.Th>
                  {preview[0]?.values.map((m) => (
                    <Table.Th key={m.date} ta="right">
                      {formatMonthYear(m.date)}
                    </Table.Th>
                  ))}
                </Table.Tr>
              </Table.Thead>
              <Table.Tbody>
                {preview.map((line) => (
                  <Table.Tr key={line._id}>
                    <Table.Td>{line.name}</Table.Td>
                    {line.values.map((m) => (
                      <Table.Td key={m.date} ta="right">
                        {formatQuantity(m.quantity, line.unit)}
                      </Table.Td>
                    ))}
                  </Table.Tr>
                ))}
              </Table.Tbody>
            </Table>
          </Table.ScrollContainer>
          <Group justify="flex-end">
            <Button variant="default" onClick={clearStandardImport} disabled={busy}>
              Annuler
            </Button>
            <Button onClick={onCommit} disabled={busy}>
              {busy ? 'en cours...' : 'Importer'}
            </Button>
          </Group>
        </Stack>
      ) : null}

      {failure ? (
        <Alert color="red" role="alert">
          {failure}
        </Alert>
      ) : null}
      {result ? <ImportResultView count={result.dbSuccesses} failures={result.dbErrors} /> : null}
    </Stack>
  )
}
