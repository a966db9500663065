import { Input } from '@mantine/core'
import { type KeyboardEvent, memo, useRef, useState } from 'react'
import { filterCellInput, formatCellValue } from './cellInput'
import type { NeedRO, ProductRO } from './model'
import type { Month } from './period'
import { type CellTone, TONE_COLORS, TONE_LABELS } from './rows'

export interface NeedCellProps {
  product: ProductRO
  month: Month
  need: NeedRO | undefined
  /** How the need stands (see cellTone). */
  tone: CellTone
  /** Whether the cell can be typed into. */
  editable: boolean
  /** Shown when the user types into a cell that cannot change (a past month of the shop). */
  lockedMessage?: string
  selected: boolean
  /** Accessible name, e.g. "Tomate, décembre 2026". */
  label: string
  inputRef: (product: string, month: Month, el: HTMLInputElement | null) => void
  onFocusCell: (product: string, month: Month) => void
  /** A key that may move to another cell (the grid decides). */
  onMoveKey: (event: KeyboardEvent<HTMLInputElement>, product: string, month: Month) => void
  /** Commits typed text; resolves once the store holds the outcome. */
  onCommit: (product: string, month: Month, text: string) => Promise<void>
  onRefuse: (product: string, month: Month, message: string) => void
}

/**
 * One cell of the planner grid (PRODUCT §4 "Need cell editing"): shows the
 * need's quantity, takes digits (and one comma for kg), commits on blur — a
 * move to another cell blurs it — and Escape puts the stored value back.
 * While a commit runs the typed text stays and the cell is read-only.
 */
export const NeedCell = memo(function NeedCell({
  product,
  month,
  need,
  tone,
  editable,
  lockedMessage,
  selected,
  label,
  inputRef,
  onFocusCell,
  onMoveKey,
  onCommit,
  onRefuse,
}: NeedCellProps) {
  const unit = product.unit
  const stored = need ? formatCellValue(need.quantity, unit) : ''
  const [draft, setDraft] = useState<string | null>(null)
  const [saving, setSaving] = useState(false)
  // Focus selects the whole value so that typing replaces it; the mouseup of
  // the click that focused the cell would otherwise collapse that selection.
  const keepSelection = useRef(false)

  const commit = async () => {
    if (draft === null) return
    if (draft === stored) {
      setDraft(null)
      return
    }
    setSaving(true)
    try {
      await onCommit(product._id, month, draft)
    } finally {
      setSaving(false)
      setDraft(null)
    }
  }

  const onKeyDown = (event: KeyboardEvent<HTMLInputElement>) => {
    if (event.key === 'Escape') {
      if (draft !== null) {
        event.preventDefault()
        setDraft(null)
      }
      return
    }
    if (!editable && lockedMessage && (event.key.length === 1 || event.key === 'Backspace' || event.key === 'Delete')) {
      event.preventDefault()
      onRefuse(product._id, month, lockedMessage)
      return
    }
    onMoveKey(event, product._id, month)
  }

  return (
    <Input
      size="xs"
      ref={(el: HTMLInputElement | null) => inputRef(product._id, month, el)}
      value={draft ?? stored}
      readOnly={!editable || saving}
      inputMode={unit === 'kg' ? 'decimal' : 'numeric'}
      autoComplete="off"
      aria-label={label}
      data-selected={selected || undefined}
      data-need={need ? 'yes' : undefined}
      data-tone={tone}
      title={tone === 'none' ? undefined : TONE_LABELS[tone]}
      onChange={(e) => setDraft(filterCellInput(e.currentTarget.value, unit))}
      onFocus={(e) => {
        e.currentTarget.select()
        keepSelection.current = true
        onFocusCell(product._id, month)
      }}
      onMouseUp={(e) => {
        if (keepSelection.current) e.preventDefault()
        keepSelection.current = false
      }}
      onBlur={() => void commit()}
      onKeyDown={onKeyDown}
      styles={{
        input: {
          textAlign: 'right',
          fontVariantNumeric: 'tabular-nums',
          backgroundColor: selected
            ? 'var(--mantine-color-blue-light)'
            : (TONE_COLORS[tone] ?? (editable ? undefined : 'var(--mantine-color-gray-1)')),
          fontWeight: tone === 'awaits' ? 700 : undefined,
        },
      }}
    />
  )
})
