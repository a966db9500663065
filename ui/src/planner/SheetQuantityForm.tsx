import { Alert, Button, Group, TextInput } from '@mantine/core'
import { type FormEvent, useState } from 'react'
import { SUBMITTING_LABEL } from '../forms/useSubmit'
import type { Unit } from '../types'
import type { NeedRO } from './model'
import { filterCellInput, formatCellValue } from './cellInput'
import { isPastMonth, type Month } from './period'
import type { CommitOutcome } from './Planner'
import { isWholeUnit, unitFieldName } from '../units'

/** The French texts of the form. */
export const SHEET_QUANTITY_TEXTS = {
  // Not "Quantité": the proposal form of the same sheet has that field (one label per field, issue 37).
  label: (unit: Unit) => `Besoin (${unitFieldName(unit)})`,
  submit: 'Enregistrer',
  saved: 'Quantité enregistrée.',
  unchanged: 'Pas de changement à envoyer',
} as const

/**
 * The need's quantity in the planner's detail sheet, for a shop on a phone
 * (issue 19): a tap on a cell opens the sheet, and a phone has no key to
 * start typing in the grid, so the quantity is edited here, by the same
 * rule and the same request as the grid's cell (the planner's onCommit);
 * a refusal is said here, where the shop is looking.
 */
export function SheetQuantityForm({
  productId,
  unit,
  month,
  current,
  need,
  onCommit,
}: {
  productId: string
  unit: Unit
  month: Month
  /** The current month: a past month is read-only (no form). */
  current: Month
  need: NeedRO | undefined
  onCommit: (product: string, month: Month, text: string) => Promise<CommitOutcome>
}) {
  const stored = need ? formatCellValue(need.quantity, unit) : ''
  const [text, setText] = useState(stored)
  const [saving, setSaving] = useState(false)
  const [outcome, setOutcome] = useState<CommitOutcome | null>(null)
  if (isPastMonth(month, current)) return null

  const onSubmit = async (event: FormEvent) => {
    event.preventDefault()
    if (saving) return
    setSaving(true)
    try {
      setOutcome(await onCommit(productId, month, text))
    } finally {
      setSaving(false)
    }
  }

  return (
    <form onSubmit={onSubmit} noValidate aria-label="Quantité du besoin">
      <Group align="flex-end" gap="sm" wrap="nowrap">
        <TextInput
          style={{ flex: 1 }}
          label={SHEET_QUANTITY_TEXTS.label(unit)}
          value={text}
          inputMode={isWholeUnit(unit) ? 'numeric' : 'decimal'}
          autoComplete="off"
          onChange={(e) => {
            setText(filterCellInput(e.currentTarget.value, unit))
            setOutcome(null)
          }}
          error={outcome?.kind === 'refused' ? outcome.message : undefined}
        />
        <Button type="submit" disabled={saving}>
          {saving ? SUBMITTING_LABEL : SHEET_QUANTITY_TEXTS.submit}
        </Button>
      </Group>
      {outcome?.kind === 'saved' || outcome?.kind === 'unchanged' ? (
        <Alert mt="xs" color={outcome.kind === 'saved' ? 'green' : 'gray'} role="status">
          {outcome.kind === 'saved' ? SHEET_QUANTITY_TEXTS.saved : SHEET_QUANTITY_TEXTS.unchanged}
        </Alert>
      ) : null}
    </form>
  )
}
