import { Button, Group, Radio, Stack, Text, TextInput, Textarea } from '@mantine/core'
import { type FormEvent, useCallback, useMemo, useState } from 'react'
import { useFormState } from '../forms/useFormState'
import { example } from '../components/example'
import { sendClaim, useAutovalidateHours } from '../store/deliveries'
import type { ClaimType, Product } from '../types'
import {
  CLAIM_MESSAGES,
  type ClaimField,
  type ClaimLine,
  type ClaimValues,
  checkClaim,
  claimPayload,
  validateClaim,
} from '../validation/claim'
import { type DeliveryRow, acceptedBySilence } from './model'
import { productOf, typed } from './products'

/** PRODUCT §5: what an accepted claim changes on the invoice. */
export const CLAIM_NOTE =
  'Le magasin sera facturé de la quantité livrée augmentée de la quantité réclamée, au lieu de la quantité livrée.'

/** PRODUCT §16 "Auto-validation": a claim that raises the amount waits for the shop's answer. */
export const RAISING_NOTE =
  'Une quantité positive augmente le montant facturé : la demande attendra la réponse du magasin, sans acceptation automatique.'

/** What the form says of the shop's silence, for the quantities typed. */
export function silenceNote(values: ClaimValues, lines: readonly ClaimLine[], hours: number): string {
  const claimed = lines.map((l) => {
    const r = checkClaim(values[l._id]?.quantity ?? '', l)
    return 'hundredths' in r ? r.hundredths : 0
  })
  if (!acceptedBySilence(claimed) && claimed.some((q) => q !== 0)) return RAISING_NOTE
  return `Sans réponse du magasin sous ${hours} h, une demande qui réduit le montant est acceptée automatiquement.`
}

export const CLAIM_TYPES: { value: ClaimType; label: string }[] = [
  { value: 'quality', label: 'Qualité' },
  { value: 'quantity', label: 'Quantité' },
]

/**
 * The producer's claim (demande d'avoir) on a done delivery (PRODUCT §4, §5):
 * per line a signed quantity, a type and an optional comment. A pending
 * claim may be modified. Remount it (key) when the delivery changes.
 */
export function ClaimForm({ row, products }: { row: DeliveryRow; products: ReadonlyMap<string, Product> }) {
  const d = row.delivery
  const lines: ClaimLine[] = useMemo(
    () =>
      d.deliveryLines.map((l) => ({
        _id: l._id,
        unit: productOf(products, l.product).unit,
        expected: l.quantityExpected,
        sent: l.quantitySent,
        claimed: l.quantityClaimed,
        claimType: l.quantityClaimed ? (l.claimType ?? '') : '',
        claimComment: l.quantityClaimed ? (l.claimComment ?? '') : '',
      })),
    [d, products],
  )
  const [initial] = useState<ClaimValues>(() =>
    Object.fromEntries(
      lines.map((l) => [
        l._id,
        { quantity: l.claimed ? typed(l.claimed) : '', type: l.claimType, comment: l.claimComment },
      ]),
    ),
  )
  const pending = d.claimStatus === 'sent'
  const validate = useCallback((values: ClaimValues) => validateClaim(values, lines, pending), [lines, pending])
  const form = useFormState<ClaimValues, ClaimField>(initial, validate)
  const [busy, setBusy] = useState(false)
  const hours = useAutovalidateHours()

  const setLine = (id: string, change: Partial<ClaimValues[string]>) => {
    form.setValue(id as keyof ClaimValues, { ...form.values[id], ...change })
    form.setServerErrors({})
  }

  const submit = async (e: FormEvent) => {
    e.preventDefault()
    form.touchAll()
    if (!form.canSubmit) return
    setBusy(true)
    const payload = claimPayload(form.values, lines)
    const result = await sendClaim(row.order._id, d._id, payload)
    setBusy(false)
    if (!result.ok) {
      const errors: Record<string, string> = {}
      for (const [field, message] of Object.entries(result.fieldErrors)) {
        const m = /^deliveryLines\[(\d+)\]\.(quantityClaimed|claimType|claimComment)$/.exec(field)
        const line = m ? payload.deliveryLines[Number(m[1])] : undefined
        const kind = m?.[2] === 'claimType' ? 'type' : m?.[2] === 'claimComment' ? 'comment' : 'quantity'
        if (line) errors[`${kind}:${line._id}`] = message
        else errors.form = message
      }
      form.setServerErrors(errors)
    }
  }

  // The claim-wide message shows once something was typed (or on submit);
  // "Pas de changement à envoyer" (PRODUCT §5) shows from the start, since a
  // pending claim opens unchanged: it says why the button is disabled.
  const noChange = form.errors.form === CLAIM_MESSAGES.noChange
  const formError = form.errorOf('form') ?? (form.isDirty || noChange ? form.errors.form : undefined)
  const formErrorId = `claim-form-message-${d._id}`
  return (
    <form onSubmit={submit} aria-label="Demande d'avoir" noValidate>
      <Stack gap="sm">
        {d.deliveryLines.map((l) => {
          const p = productOf(products, l.product)
          const v = form.values[l._id]
          const typeError = v.quantity.trim() !== '' ? form.errors[`type:${l._id}`] : undefined
          return (
            <Stack key={l._id} gap={4}>
              <TextInput
                label={`Quantité réclamée — ${p.name} (${p.unit})`}
                description={`Commandé : ${typed(l.quantityExpected)} ${p.unit}, livré : ${typed(l.quantitySent)} ${p.unit}. Négatif pour une quantité à retirer, positif pour une quantité à ajouter (jusqu'à la quantité commandée).`}
                placeholder={example('-2,5')}
                inputMode="decimal"
                value={v.quantity}
                onChange={(e) => setLine(l._id, { quantity: e.currentTarget.value.replace('.', ',') })}
                onBlur={() => form.touch(`quantity:${l._id}`)}
                error={form.errorOf(`quantity:${l._id}`)}
              />
              {/* Two choices shown at once, one tap each: a list that opens (a
                  Select) was out of reach on a phone's sheet (issue 37). */}
              <Radio.Group
                label={`Type — ${p.name}`}
                value={v.type || null}
                onChange={(value) => setLine(l._id, { type: value as ClaimType })}
                error={typeError}
              >
                <Group gap="lg" mt={4}>
                  {CLAIM_TYPES.map((t) => (
                    <Radio key={t.value} value={t.value} label={t.label} />
                  ))}
                </Group>
              </Radio.Group>
              <Textarea
                label={`Commentaire — ${p.name}`}
                value={v.comment}
                rows={2}
                onChange={(e) => setLine(l._id, { comment: e.currentTarget.value })}
                onBlur={() => form.touch(`comment:${l._id}`)}
                error={form.errorOf(`comment:${l._id}`)}
              />
            </Stack>
          )
        })}
        <Text size="sm" c="dimmed">
          {CLAIM_NOTE}
        </Text>
        <Text size="sm" c="dimmed">
          {silenceNote(form.values, lines, hours)}
        </Text>
        {formError ? (
          <Text id={formErrorId} size="sm" c={noChange ? undefined : 'red'} role={noChange ? 'status' : 'alert'}>
            {formError}
          </Text>
        ) : null}
        <Button type="submit" disabled={!form.canSubmit || busy} aria-describedby={formError ? formErrorId : undefined}>
          {busy ? 'en cours...' : pending ? "Modifier la demande d'avoir" : "Envoyer la demande d'avoir"}
        </Button>
      </Stack>
    </form>
  )
}
