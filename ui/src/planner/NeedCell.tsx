import { Input, Table } from '@mantine/core'
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
  /**
   * A read-only cell in the keyboard's tab order (the grid's roving tab
   * stop: the selected cell, else the first); the others are reached with
   * the arrows. Editable cells are always in the tab order.
   */
  tabbable: boolean
  /** Shown when the user types into a cell that cannot change (a past month of the shop). */
  lockedMessage?: string
  selected: boolean
  /** Accessible name, e.g. "Tomate, décembre 2026". */
  label: string
  cellRef: (product: string, month: Month, el: HTMLElement | null) => void
  onFocusCell: (product: string, month: Month) => void
  /** A key that may move to another cell (the grid decides). */
  onMoveKey: (event: KeyboardEvent<HTMLElement>, product: string, month: Month) => void
  /** Commits typed text; resolves once the store holds the outcome. */
  onCommit: (product: string, month: Month, text: string) => Promise<void>
  onRefuse: (product: string, month: Month, message: string) => void
}

/**
 * The accessible name of a read-only cell: its product and month, then what
 * it holds — "Tomate, décembre 2026 : 40 kg" or "…: pas de besoin" — since a
 * cell that is no text field has no value of its own to announce.
 */
export function readOnlyCellName(label: string, need: NeedRO | undefined, unit: ProductRO['unit']): string {
  return `${label} : ${need ? `${formatCellValue(need.quantity, unit)} ${unit}` : 'pas de besoin'}`
}

/**
 * One cell of the planner grid (PRODUCT §4 "Need cell editing").
 *
 * An editable cell is a text field: it shows the need's quantity, takes
 * digits (and one comma for kg), commits on blur — a move to another cell
 * blurs it — and Escape puts the stored value back. While a commit runs the
 * typed text stays and the field is read-only.
 *
 * A read-only cell (the producer's view of a shop's needs, the shop's past
 * months) is no text field: the grid cell itself shows the quantity as
 * plain text, `aria-readonly`, without a field's border or caret. It can
 * still be selected (click, arrows) to open its detail; typing into a shop's
 * past month says why it cannot change.
 */
export const NeedCell = memo(function NeedCell(props: NeedCellProps) {
  return props.editable ? <EditableCell {...props} /> : <ReadOnlyCell {...props} />
})

function background(tone: CellTone, selected: boolean): string | undefined {
  return selected ? 'var(--mantine-color-blue-light)' : TONE_COLORS[tone]
}

function ReadOnlyCell({
  product,
  month,
  need,
  tone,
  tabbable,
  lockedMessage,
  selected,
  label,
  cellRef,
  onFocusCell,
  onMoveKey,
  onRefuse,
}: NeedCellProps) {
  const onKeyDown = (event: KeyboardEvent<HTMLElement>) => {
    // Tab leaves the cell as it would leave any read-only element.
    if (event.key === 'Tab') return
    if (lockedMessage && (event.key.length === 1 || event.key === 'Backspace' || event.key === 'Delete')) {
      event.preventDefault()
      onRefuse(product._id, month, lockedMessage)
      return
    }
    onMoveKey(event, product._id, month)
  }
  return (
    <Table.Td
      ref={(el: HTMLTableCellElement | null) => cellRef(product._id, month, el)}
      role="gridcell"
      aria-readonly="true"
      aria-selected={selected}
      aria-label={readOnlyCellName(label, need, product.unit)}
      tabIndex={tabbable ? 0 : -1}
      className="mantine-focus-auto"
      data-readonly="true"
      data-selected={selected || undefined}
      data-need={need ? 'yes' : undefined}
      data-tone={tone}
      title={tone === 'none' ? undefined : TONE_LABELS[tone]}
      onFocus={() => onFocusCell(product._id, month)}
      onKeyDown={onKeyDown}
      style={{
        height: 34,
        padding: '0 10px',
        textAlign: 'right',
        whiteSpace: 'nowrap',
        fontSize: 'var(--mantine-font-size-xs)',
        fontVariantNumeric: 'tabular-nums',
        backgroundColor: background(tone, selected),
        fontWeight: tone === 'awaits' ? 700 : undefined,
        cursor: 'default',
        userSelect: 'none',
      }}
    >
      {need ? formatCellValue(need.quantity, product.unit) : ''}
    </Table.Td>
  )
}

function EditableCell({
  product,
  month,
  need,
  tone,
  selected,
  label,
  cellRef,
  onFocusCell,
  onMoveKey,
  onCommit,
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
    onMoveKey(event, product._id, month)
  }

  return (
    <Table.Td role="gridcell" p={2}>
      <Input
        size="xs"
        ref={(el: HTMLInputElement | null) => cellRef(product._id, month, el)}
        value={draft ?? stored}
        readOnly={saving}
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
            backgroundColor: background(tone, selected),
            fontWeight: tone === 'awaits' ? 700 : undefined,
          },
        }}
      />
    </Table.Td>
  )
}
