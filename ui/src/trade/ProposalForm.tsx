import { Button, Group, NativeSelect, Paper, Stack, TextInput, Title } from '@mantine/core'
import { type FormEvent, type KeyboardEvent, type ReactNode, useCallback, useState } from 'react'
import { useFormState } from '../forms/useFormState'
import { useSubmit } from '../forms/useSubmit'
import { ProposalPrerequisites, useProposalBlocked } from '../onboarding/ProposalPrerequisites'
import type { Unit } from '../types'
import {
  type ProposalField,
  type ProposalValues,
  acceptsKey,
  offerOf,
  sanitize,
  toInput,
  validateProposal,
} from './proposalForm'

/** What submitting did: field messages from the daemon are shown under their fields. */
export interface SubmitOutcome {
  ok: boolean
  fieldErrors?: Record<string, string>
}

export interface ProposalFormProps {
  /** Heading, e.g. "Proposer", "Contre-proposer", "Corriger l'engagement". */
  title: string
  unit: Unit
  /** The most this producer may hold on the need. */
  max: number
  /** A correction: zero is allowed (it ends the commitment). */
  zeroAllowed: boolean
  /** Values to start from (a proposal being modified, a commitment being corrected). */
  initial?: { quantity: number; price: number }
  submitLabel?: string
  /** Shown under the fields: the need's price comparison. */
  hint?: ReactNode
  /**
   * The producer's own products of the need's type (PRODUCT §3 "Producers'
   * products"): when there are some, the form asks which one it proposes
   * ("" none) and sends it as suppliedProduct.
   */
  products?: readonly { readonly _id: string; readonly name: string; readonly saleUnit: string }[]
  /** The product the proposal or commitment being changed names. */
  initialProduct?: string
  onSubmit: (offer: { quantity: number; price: number; suppliedProduct?: string }) => Promise<SubmitOutcome>
  onCancel?: () => void
}

/**
 * The proposal form (PRODUCT §5): quantity and unit price in French decimals
 * (digits and one comma; a dot becomes a comma), at most two decimals
 * (whole pieces: more is refused, never rounded), with the exact messages; the submit button is disabled while untouched or invalid
 * and reads "en cours..." while the request runs. Remount it (key) to start
 * over.
 */
export function ProposalForm({
  title,
  unit,
  max,
  zeroAllowed,
  initial,
  submitLabel = 'Envoyer',
  hint,
  products,
  initialProduct,
  onSubmit,
  onCancel,
}: ProposalFormProps) {
  // Until the producer picks one: the one the proposal names, else its only
  // product of the type (the list may arrive after the form).
  const [chosen, setProduct] = useState<string | undefined>(initialProduct)
  const product = chosen ?? (products?.length === 1 ? products[0]._id : '')
  const [start] = useState<ProposalValues>(() => ({
    quantity: initial ? toInput(initial.quantity) : '',
    price: initial ? toInput(initial.price) : '',
  }))
  const validate = useCallback(
    (values: ProposalValues) => validateProposal(values, { unit, max, zeroAllowed }),
    [unit, max, zeroAllowed],
  )
  const form = useFormState<ProposalValues, ProposalField>(start, validate)
  const submission = useSubmit()
  // A producer without delivery days is told before it types (the daemon would refuse).
  const blocked = useProposalBlocked()

  const submit = async (event: FormEvent) => {
    event.preventDefault()
    if (!form.canSubmit) return
    await submission.run(async () => {
      const offer = offerOf(form.values)
      const outcome = await onSubmit(products?.length ? { ...offer, suppliedProduct: product } : offer)
      if (!outcome.ok && outcome.fieldErrors) form.setServerErrors(outcome.fieldErrors)
    })
  }

  const field = (name: ProposalField, label: string) => (
    <TextInput
      label={label}
      inputMode="decimal"
      autoComplete="off"
      value={form.values[name]}
      disabled={blocked}
      onKeyDown={(e: KeyboardEvent<HTMLInputElement>) => {
        if (!e.ctrlKey && !e.metaKey && !e.altKey && !acceptsKey(e.key, e.currentTarget.value)) e.preventDefault()
      }}
      onChange={(e) => form.setValue(name, sanitize(e.currentTarget.value))}
      onBlur={() => form.touch(name)}
      error={form.errorOf(name)}
    />
  )

  return (
    <Paper component="form" withBorder p="sm" onSubmit={submit} noValidate aria-label={title}>
      <Stack gap="xs">
        <Title order={4}>{title}</Title>
        <ProposalPrerequisites />
        <Group grow align="flex-start">
          {field('quantity', `Quantité (${unit})`)}
          {field('price', `Prix unitaire HT (€/${unit})`)}
        </Group>
        {products?.length ? (
          <NativeSelect
            label="Votre produit"
            value={product}
            onChange={(e) => setProduct(e.currentTarget.value)}
            disabled={blocked}
            error={form.errorOf('suppliedProduct' as ProposalField)}
            data={[
              { value: '', label: 'Aucun : le type seul' },
              ...products.map((p) => ({ value: p._id, label: `${p.name} · ${p.saleUnit}` })),
            ]}
          />
        ) : null}
        {hint}
        <Group justify="flex-end">
          {onCancel ? (
            <Button variant="default" onClick={onCancel} disabled={submission.submitting}>
              Annuler
            </Button>
          ) : null}
          <Button type="submit" disabled={blocked || !form.canSubmit || submission.submitting}>
            {submission.label(submitLabel)}
          </Button>
        </Group>
      </Stack>
    </Paper>
  )
}
