import { Button, Group, Select, Stack } from '@mantine/core'
import { type FormEvent, useCallback, useMemo, useState } from 'react'
import { useFormState } from '../forms/useFormState'
import { SubmitFailure } from '../forms/SubmitFailure'
import { useSubmit } from '../forms/useSubmit'
import { useNeeds, useProducts } from '../store/hooks'
import { createNeed } from '../store/needs'
import { type SingleNeedField, type SingleNeedValues, validateSingleNeed } from '../validation/singleNeed'
import { monthOptions } from './monthOptions'
import { currentMonth } from './period'
import { ProductSelect } from './ProductSelect'
import { QuantityInput } from './QuantityInput'

/** Adds one need: a product (searchable), a month and a quantity (PRODUCT §2 "Add bar"). */
export function SingleNeedForm({ onDone }: { onDone: () => void }) {
  const products = useProducts()
  const needs = useNeeds()
  const [current] = useState(() => currentMonth())
  const months = useMemo(() => monthOptions(current), [current])
  const validate = useCallback(
    (values: SingleNeedValues) =>
      validateSingleNeed(values, {
        unitOf: (id) => products.find((p) => p._id === id)?.unit,
        exists: (product, month) => needs.some((n) => n.product === product && n.date === month),
        current,
      }),
    [products, needs, current],
  )
  const form = useFormState<SingleNeedValues, SingleNeedField>({ product: '', month: current, quantity: '' }, validate)
  const submission = useSubmit()
  const unit = products.find((p) => p._id === form.values.product)?.unit ?? 'kg'

  const onSubmit = async (event: FormEvent) => {
    event.preventDefault()
    form.touchAll()
    if (!form.canSubmit) return
    const quantity = Number(form.values.quantity.replace(',', '.'))
    await submission.run(async () => {
      const result = await createNeed({ product: form.values.product, date: form.values.month, quantity })
      if (!result.ok) return result.message
      onDone()
    })
  }

  return (
    <form onSubmit={onSubmit} noValidate aria-label="Ajouter un besoin">
      <Stack gap="sm">
        <ProductSelect
          value={form.values.product}
          onChange={(id) => {
            form.setValue('product', id, { touch: true })
            // A need may already exist for the month shown: say so at once.
            form.touch('month')
          }}
          error={form.errorOf('product')}
        />
        <Select
          label="Mois"
          data={months}
          allowDeselect={false}
          value={form.values.month || null}
          onChange={(v) => form.setValue('month', v ?? '', { touch: true })}
          error={form.errorOf('month')}
        />
        <QuantityInput
          label="Quantité"
          unit={unit}
          value={form.values.quantity}
          onChange={(text) => form.setValue('quantity', text)}
          onBlur={() => form.touch('quantity')}
          error={form.errorOf('quantity')}
        />
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
