import { Button, Group, Stack, TextInput } from '@mantine/core'
import { DatePickerInput } from '@mantine/dates'
import '@mantine/dates/styles.css'
import { type FormEvent, useCallback, useMemo, useState } from 'react'
import { useFormState } from '../forms/useFormState'
import { cancelDelivery, updateDelivery } from '../store/deliveries'
import type { Product } from '../types'
import { type DeliveryField, type DeliveryValues, parseQuantity, validateDelivery } from '../validation/delivery'
import { CancelDeliveryButton } from './CancelDeliveryButton'
import { type DeliveryRow, dateBounds, dateBoundsHint } from './model'
import { productOf, typed } from './products'

/**
 * The shop's form on a planned delivery before its lock (PRODUCT §4, §5): the
 * date (from tomorrow) and the sent quantities, and cancellation (after a
 * confirmation dialog). Remount it (key) when the delivery changes.
 */
export function DeliveryForm({
  row,
  products,
  now,
}: {
  row: DeliveryRow
  products: ReadonlyMap<string, Product>
  now: Date
}) {
  const d = row.delivery
  const [initial] = useState<DeliveryValues>(() => ({
    date: d.date,
    sent: Object.fromEntries(d.deliveryLines.map((l) => [l._id, typed(l.quantitySent)])),
  }))
  const bounds = dateBounds(row, now)
  const context = useMemo(
    () => ({
      units: Object.fromEntries(d.deliveryLines.map((l) => [l._id, productOf(products, l.product).unit])),
      minDate: bounds.min,
      maxDate: bounds.max,
    }),
    [d, products, bounds.min, bounds.max],
  )
  const validate = useCallback((values: DeliveryValues) => validateDelivery(values, context), [context])
  const form = useFormState<DeliveryValues, DeliveryField>(initial, validate)
  const [busy, setBusy] = useState<'save' | 'cancel' | null>(null)

  const submit = async (e: FormEvent) => {
    e.preventDefault()
    form.touchAll()
    if (!form.canSubmit) return
    const update: { date?: string; deliveryLines?: { _id: string; quantitySent: number }[] } = {}
    if (form.values.date && form.values.date !== initial.date) update.date = form.values.date
    const lines = d.deliveryLines
      .filter((l) => form.values.sent[l._id].trim() !== initial.sent[l._id].trim())
      .map((l) => ({ _id: l._id, quantitySent: parseQuantity(form.values.sent[l._id]) }))
    if (lines.length > 0) update.deliveryLines = lines
    setBusy('save')
    const result = await updateDelivery(row.order._id, d._id, update)
    setBusy(null)
    if (!result.ok) {
      const errors: Record<string, string> = {}
      for (const [field, message] of Object.entries(result.fieldErrors)) {
        const m = /^deliveryLines\[(\d+)\]\.quantitySent$/.exec(field)
        if (m && lines[Number(m[1])]) errors[`sent:${lines[Number(m[1])]._id}`] = message
        else if (field === 'date') errors.date = message
      }
      form.setServerErrors(errors)
    }
  }

  const cancel = async () => {
    setBusy('cancel')
    await cancelDelivery(row.order._id, d._id)
    setBusy(null)
  }

  return (
    <form onSubmit={submit} aria-label="Modifier la livraison" noValidate>
      <Stack gap="sm">
        <DatePickerInput
          label="Date de livraison"
          value={form.values.date}
          onChange={(v) => form.setValue('date', v, { touch: true })}
          minDate={bounds.min}
          maxDate={bounds.max}
          description={dateBoundsHint(bounds)}
          valueFormat="D MMMM YYYY"
          error={form.errorOf('date')}
          popoverProps={{ withinPortal: true }}
        />
        {d.deliveryLines.map((l) => {
          const p = productOf(products, l.product)
          const field = `sent:${l._id}` as const
          return (
            <TextInput
              key={l._id}
              label={`Quantité livrée — ${p.name} (${p.unit})`}
              inputMode="decimal"
              value={form.values.sent[l._id]}
              onChange={(e) =>
                form.setValue('sent', { ...form.values.sent, [l._id]: e.currentTarget.value.replace('.', ',') })
              }
              onBlur={() => form.touch(field)}
              error={form.errorOf(field)}
            />
          )
        })}
        <Group justify="space-between">
          <Button type="submit" disabled={!form.canSubmit || busy !== null}>
            {busy === 'save' ? 'en cours...' : 'Enregistrer'}
          </Button>
          <CancelDeliveryButton
            row={row}
            busy={busy === 'cancel'}
            disabled={busy !== null}
            onConfirm={() => void cancel()}
          />
        </Group>
      </Stack>
    </form>
  )
}
