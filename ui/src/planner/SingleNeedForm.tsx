import { Alert, Button, Group, Select, Stack, TextInput } from '@mantine/core'
import { type FormEvent, useCallback, useMemo, useState } from 'react'
import { useFormState } from '../forms/useFormState'
import { useSubmit } from '../forms/useSubmit'
import { useNeeds, useProducts } from '../store/hooks'
import { createNeed } from '../store/needs'
import { type SingleNeedField, type SingleNeedValues, validateSingleNeed } from '../validation/singleNeed'
import { filterCellInput } from './cellInput'
import { monthOptions } from './monthOptions'
import { currentMonth } from './period'

/** Adds one need: a product (searchable), a month and a quantity (PRODUCT §2 "Add bar"). */
export function SingleNeedForm({ onDone }: { onDone: () => void }) {
  const products = useProducts()
  const needs = useNeeds()
  const [current] = useState(() => currentMonth())
  const months = useMemo(() => monthOptions(current), [current])
  const productOptions = useMemo(() => products.map((p) => ({ value: p._id, label: p.name })), [products])
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
        <Select
          label="Produit"
          placeholder="Rechercher un produit"
          searchable
          data={productOptions}
          value={form.values.product || null}
          onChange={(v) => {
            form.setValue('product', v ?? '', { touch: true })
            // A need may already exist for the month shown: say so at once.
            form.touch('month')
          }}
          nothingFoundMessage="Aucun produit"
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
        <TextInput
          label="Quantité"
          inputMode={unit === 'kg' ? 'decimal' : 'numeric'}
          rightSection={unit}
          value={form.values.quantity}
          onChange={(e) => form.setValue('quantity', filterCellInput(e.currentTarget.value, unit))}
          onBlur={() => form.touch('quantity')}
          error={form.errorOf('quantity')}
        />
        {submission.failure ? (
          <Alert color="red" role="alert">
            {submission.failure}
          </Alert>
        ) : null}
        <Group justify="flex-end">
          <Button type="submit" disabled={!form.canSubmit || submission.submitting}>
            {submission.label('Ajouter')}
          </Button>
        </Group>
      </Stack>
    </form>
  )
}
