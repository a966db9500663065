import { Button, Group, MultiSelect, SimpleGrid, Stack } from '@mantine/core'
import { type FormEvent, useCallback, useMemo, useState } from 'react'
import { formatMonthYear } from '../format'
import { useFormState } from '../forms/useFormState'
import { SubmitFailure } from '../forms/SubmitFailure'
import { useSubmit } from '../forms/useSubmit'
import { useProducts } from '../store/hooks'
import { bulkNeeds } from '../store/needs'
import { type BulkNeedsField, type BulkNeedsValues, quantityField, validateBulkNeeds } from '../validation/bulkNeeds'
import { monthOptions } from './monthOptions'
import { currentMonth } from './period'
import { ProductSelect } from './ProductSelect'
import { QuantityInput } from './QuantityInput'

/**
 * Adds one product's needs for several months at once, a quantity for each
 * (PRODUCT §2 "Bulk add", `POST /api/needs/bulk`). Needs already set for those
 * months take the new quantities.
 */
export function BulkNeedsForm({ onDone }: { onDone: () => void }) {
  const products = useProducts()
  const [current] = useState(() => currentMonth())
  const months = useMemo(() => monthOptions(current), [current])
  const validate = useCallback(
    (values: BulkNeedsValues) =>
      validateBulkNeeds(values, { unitOf: (id) => products.find((p) => p._id === id)?.unit, current }),
    [products, current],
  )
  const form = useFormState<BulkNeedsValues, BulkNeedsField>({ product: '', months: [], quantities: {} }, validate)
  const submission = useSubmit()
  const unit = products.find((p) => p._id === form.values.product)?.unit ?? 'kg'
  const chosen = [...form.values.months].sort()

  const onSubmit = async (event: FormEvent) => {
    event.preventDefault()
    form.touchAll()
    if (!form.canSubmit) return
    await submission.run(async () => {
      const result = await bulkNeeds({
        product: form.values.product,
        dates: chosen,
        quantities: chosen.map((m) => Number((form.values.quantities[m] ?? '').replace(',', '.'))),
      })
      if (!result.ok) return result.message
      onDone()
    })
  }

  return (
    <form onSubmit={onSubmit} noValidate aria-label="Ajout groupé de besoins">
      <Stack gap="sm">
        <ProductSelect
          value={form.values.product}
          onChange={(id) => form.setValue('product', id, { touch: true })}
          error={form.errorOf('product')}
        />
        <MultiSelect
          label="Mois"
          placeholder="Choisir les mois"
          data={months}
          value={form.values.months}
          onChange={(v) => form.setValue('months', v, { touch: true })}
          error={form.errorOf('months')}
          hidePickedOptions
          searchable
          nothingFoundMessage="Aucun mois"
        />
        <SimpleGrid cols={{ base: 1, sm: 2 }} spacing="xs">
          {chosen.map((m) => (
            <QuantityInput
              key={m}
              label={`Quantité pour ${formatMonthYear(m)}`}
              unit={unit}
              value={form.values.quantities[m] ?? ''}
              onChange={(text) => form.setValue('quantities', { ...form.values.quantities, [m]: text })}
              onBlur={() => form.touch(quantityField(m))}
              error={form.errorOf(quantityField(m))}
            />
          ))}
        </SimpleGrid>
        <SubmitFailure message={submission.failure} />
        <Group justify="flex-end">
          <Button type="submit" disabled={!form.canSubmit || submission.submitting}>
            {submission.label('Ajouter')}
          </Button>
        </Group>
      </Stack>
    </form>
  )
}
