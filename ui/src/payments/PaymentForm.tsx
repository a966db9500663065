import type { Snapshot } from 'valtio'
import {
  Alert,
  Button,
  Group,
  MultiSelect,
  NumberInput,
  Select,
  SimpleGrid,
  Stack,
  Text,
  TextInput,
} from '@mantine/core'
import { type FormEvent, useCallback, useState } from 'react'
import { formatEUR } from '../format'
import { useFormState } from '../forms/useFormState'
import { useSubmit } from '../forms/useSubmit'
import { declarePayment, recordPayment } from '../store/payments'
import type { UserType } from '../types'
import { type PaymentField, validatePayment } from '../validation/payment'
import { METHOD_LABELS } from './labels'
import { isCredit, type PaymentAccount, type PaymentEntry, type PaymentMethod } from './types'

const METHODS = Object.entries(METHOD_LABELS).map(([value, label]) => ({ value, label }))

/**
 * The warning of a payment entered while nothing is owed (issue 37: it was
 * recorded without a word): it stays on account as an advance (PRODUCT §16
 * "Accounts").
 */
export const NOTHING_OWED = {
  title: 'Rien à régler pour le moment',
  producer:
    'Ce magasin ne vous doit rien aujourd’hui : ce paiement restera en avance sur son compte, imputée sur ses prochaines factures.',
  distributor:
    'Vous ne devez rien à ce producteur aujourd’hui : ce paiement restera en avance sur votre compte, imputée sur vos prochaines factures.',
} as const

/**
 * The producer records a payment received from a shop, or the shop declares
 * one sent to a producer (PRODUCT §16 "Payments"): amount, date, method,
 * reference, and the invoices it pays — by default the oldest due first.
 */
export function PaymentForm({
  account,
  role,
  today,
  onDone,
}: {
  account: Snapshot<PaymentAccount>
  role: UserType
  today: string
  onDone: () => void
}) {
  const open = account.documents.filter((d) => !isCredit(d.kind) && d.balance > 0)
  const [initial] = useState<PaymentEntry>(() => ({
    partnerId: account.partnerId,
    amount: Math.max(0, account.owed),
    paidOn: today,
    method: 'virement',
    reference: '',
    documents: [],
  }))
  const validate = useCallback((p: PaymentEntry) => validatePayment(p, today), [today])
  const form = useFormState<PaymentEntry, PaymentField>(initial, validate)
  const submission = useSubmit()
  const [amountInput, setAmountInput] = useState<string | number>(initial.amount)
  const p = form.values

  const onSubmit = async (event: FormEvent) => {
    event.preventDefault()
    form.touchAll()
    if (Object.keys(validate(p)).length > 0) return
    await submission.run(async () => {
      const result = role === 'producer' ? await recordPayment(p) : await declarePayment(p)
      if (result.ok) onDone()
      else form.setServerErrors(result.fieldErrors)
    })
  }

  return (
    <form onSubmit={onSubmit} noValidate aria-label="Paiement">
      <Stack gap="sm">
        {account.owed <= 0 ? (
          <Alert color="yellow" title={NOTHING_OWED.title}>
            {NOTHING_OWED[role]}
          </Alert>
        ) : null}
        <SimpleGrid cols={{ base: 1, sm: 2 }}>
          <NumberInput
            label="Montant (€)"
            min={0}
            decimalScale={2}
            decimalSeparator=","
            value={amountInput}
            onChange={(v) => {
              setAmountInput(v)
              form.setValue('amount', typeof v === 'number' ? v : Number.NaN)
            }}
            onBlur={() => form.touch('amount')}
            error={form.errorOf('amount')}
          />
          <TextInput
            label="Date du paiement"
            type="date"
            max={today}
            value={p.paidOn}
            onChange={(e) => form.setValue('paidOn', e.currentTarget.value)}
            onBlur={() => form.touch('paidOn')}
            error={form.errorOf('paidOn')}
          />
          <Select
            label="Moyen de paiement"
            data={METHODS}
            value={p.method}
            allowDeselect={false}
            onChange={(v) => form.setValue('method', (v ?? 'virement') as PaymentMethod, { touch: true })}
            error={form.errorOf('method')}
          />
          <TextInput
            label="Référence (facultatif)"
            value={p.reference}
            onChange={(e) => form.setValue('reference', e.currentTarget.value)}
            onBlur={() => form.touch('reference')}
            error={form.errorOf('reference')}
          />
        </SimpleGrid>
        {open.length > 0 ? (
          <MultiSelect
            label="Factures réglées"
            description="Sans choix, le paiement règle d'abord les factures les plus anciennes."
            data={open.map((d) => ({ value: d._id, label: `${d.number} — reste ${formatEUR(d.balance)}` }))}
            value={p.documents}
            onChange={(v) => form.setValue('documents', v, { touch: true })}
          />
        ) : null}
        {role === 'distributor' ? (
          <Text size="sm" c="dimmed">
            Le producteur confirmera le paiement à sa réception ; il compte alors dans vos soldes.
          </Text>
        ) : null}
        <Group justify="flex-end">
          <Button variant="default" onClick={onDone}>
            Annuler
          </Button>
          <Button type="submit" disabled={submission.submitting}>
            {submission.label(role === 'producer' ? 'Enregistrer le paiement' : 'Déclarer le paiement')}
          </Button>
        </Group>
      </Stack>
    </form>
  )
}
