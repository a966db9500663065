import { Button, Group, NumberInput, Paper, SegmentedControl, SimpleGrid, Stack, Text, Title } from '@mantine/core'
import { type FormEvent, useCallback, useState } from 'react'
import { useFormState } from '../forms/useFormState'
import { useSubmit } from '../forms/useSubmit'
import { updateProfile } from '../store/session'
import type { PaymentTerms } from '../types'
import {
  DEFAULT_TERMS,
  LEGAL_DAYS,
  MAX_MONTH_DAYS,
  MIN_DECADE_DAYS,
  TERMS_MESSAGES,
  validateTerms,
} from '../validation/paymentTerms'

const BASES = [
  { value: 'decade', label: 'Après la fin de la décade' },
  { value: 'month', label: 'Après la fin du mois' },
]

/** Hundredths of a percent as the field shows them: 250 → 2.5. */
const toPercent = (bps: number) => bps / 100
const fromPercent = (pct: number) => Math.round(pct * 100)

/**
 * The producer's payment terms (PRODUCT §16 "Payment terms"): the days
 * after the end of the décade (or of the month) of the first delivery
 * billed, within the legal maximum for perishables, and an early-payment
 * discount or none. Saved with `PUT /api/user`; printed on the next
 * invoices.
 */
export function PaymentTermsForm({ terms }: { terms?: PaymentTerms }) {
  const [initial] = useState<PaymentTerms>(() => terms ?? DEFAULT_TERMS)
  const validate = useCallback((t: PaymentTerms) => validateTerms(t), [])
  const form = useFormState<PaymentTerms, keyof typeof TERMS_MESSAGES>(initial, validate, { showInitialErrors: true })
  const submission = useSubmit()
  // What the discount field shows: a number, or the text being typed ("2,").
  const [discountInput, setDiscountInput] = useState<string | number>(() => toPercent(initial.discount))
  const t = form.values
  const maxDays = t.basis === 'month' ? MAX_MONTH_DAYS : LEGAL_DAYS
  const minDays = t.basis === 'month' ? 0 : MIN_DECADE_DAYS

  const onSubmit = async (event: FormEvent) => {
    event.preventDefault()
    if (!form.canSubmit) return
    await submission.run(async () => {
      await updateProfile({ paymentTerms: t })
    })
  }
  const number = (v: string | number) => (typeof v === 'number' ? v : Number.NaN)

  return (
    <Paper component="form" withBorder p="md" onSubmit={onSubmit} noValidate aria-labelledby="terms-title">
      <Stack gap="sm">
        <Title order={3} size="h4" id="terms-title">
          Conditions de paiement
        </Title>
        <Text size="sm" c="dimmed">
          Imprimées sur vos prochaines factures, émises le dernier jour du mois de vos livraisons. La loi plafonne le
          délai des denrées périssables à 30 jours après la fin de la décade de livraison : une échéance plus lointaine
          est ramenée à cette date, et aucune échéance ne tombe avant l'émission de la facture. L'escompte vaut pour un
          paiement reçu au plus tard à l'échéance.
        </Text>
        <SegmentedControl
          aria-label="Base du délai de paiement"
          data={BASES}
          value={t.basis}
          onChange={(v) => form.setValue('basis', v as PaymentTerms['basis'], { touch: true })}
        />
        <SimpleGrid cols={{ base: 1, sm: 3 }}>
          <NumberInput
            label="Délai (jours)"
            min={minDays}
            max={maxDays}
            allowDecimal={false}
            value={t.days}
            onChange={(v) => form.setValue('days', number(v))}
            onBlur={() => form.touch('days')}
            error={form.errorOf('days') ?? form.errorOf('basis')}
          />
          <NumberInput
            label="Escompte pour paiement anticipé (%)"
            min={0}
            max={10}
            decimalScale={2}
            decimalSeparator=","
            value={discountInput}
            onChange={(v) => {
              setDiscountInput(v)
              form.setValue('discount', v === '' ? 0 : fromPercent(number(v)))
            }}
            onBlur={() => form.touch('discount')}
            error={form.errorOf('discount')}
          />
          <NumberInput
            label="Escompte si payé sous (jours)"
            min={0}
            max={30}
            allowDecimal={false}
            value={t.discountDays}
            onChange={(v) => form.setValue('discountDays', number(v))}
            onBlur={() => form.touch('discount')}
          />
        </SimpleGrid>
        <Group justify="flex-end">
          <Button type="submit" disabled={!form.canSubmit || submission.submitting}>
            {submission.label('Enregistrer les conditions')}
          </Button>
        </Group>
      </Stack>
    </Paper>
  )
}
