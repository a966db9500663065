import { Box, Input, Table } from '@mantine/core'
import { type FocusEvent, type KeyboardEvent, memo, useLayoutEffect, useRef, useState } from 'react'
import { filterCellInput, formatCellValue } from './cellInput'
import type { NeedRO, ProductRO } from './model'
import { type EditMode, type EditStart, editKey, editStart } from './navigation'
import type { Month } from './period'
import { type CellTone, TONE_COLORS, TONE_LABELS } from './rows'
import { isWholeUnit } from '../units'

export interface NeedCellProps {
  product: ProductRO
  month: Month
  need: NeedRO | undefined
  /** How the need stands (see cellTone). */
  tone: CellTone
  /** Whether the cell can be edited. */
  editable: boolean
  /**
   * The grid's one tab stop (roving tabindex: the selected cell, else the
   * first); the others are reached with the arrows.
   */
  tabbable: boolean
  /** Shown when the user types into a cell that cannot change (a past month of the shop). */
  lockedMessage?: string
  selected: boolean
  /** Accessible name's start, e.g. "Tomate, décembre 2026". */
  label: string
  /** The cell's column in the grid, 1-based, the products' column first (aria-colindex). */
  colIndex: number
  cellRef: (product: string, month: Month, el: HTMLElement | null) => void
  onFocusCell: (product: string, month: Month) => void
  /** A key that may move to another cell (the grid decides, and focuses it). */
  onMoveKey: (event: KeyboardEvent<HTMLElement>, product: string, month: Month) => void
  /** Enter on a cell that does not edit: its detail is asked for (the sheet, on a phone). */
  onOpen: () => void
  /** Commits typed text; resolves once the store holds the outcome. */
  onCommit: (product: string, month: Month, text: string) => Promise<void>
  onRefuse: (product: string, month: Month, message: string) => void
}

/**
 * A cell's accessible name: its product and month, then what it holds —
 * "Tomate, décembre 2026 : 40 kg" or "…: pas de besoin" — so that a move
 * with the arrows announces where the focus is and what is there.
 */
export function cellName(label: string, need: NeedRO | undefined, unit: ProductRO['unit']): string {
  return `${label} : ${need ? `${formatCellValue(need.quantity, unit)} ${unit}` : 'pas de besoin'}`
}

/**
 * One cell of the planner grid (PRODUCT §2 "Keyboard", §4 "Need cell
 * editing"): a focusable grid cell (the grid's roving tab stop, see
 * NeedsGrid) named by cellName, that shows the need's quantity.
 *
 * An editable cell looks like a field. Enter, F2 or a double click edits
 * its value in a text field named "{product}, {month}"; a typed digit
 * replaces it, Backspace or Delete empties it (navigation.ts, editStart).
 * Enter commits, Escape puts the stored value back, both give the focus
 * back to the cell; a move (an arrow, see editKey), Tab or a click elsewhere
 * commits too. While a commit runs the cell shows the typed text and does
 * not edit.
 *
 * A read-only cell (the producer's view of a shop's needs, the shop's past
 * months) has no field: plain text, `aria-readonly`, no border. It can
 * still be selected (click, arrows) to open its detail; typing into a
 * shop's past month says why it cannot change.
 */
export const NeedCell = memo(function NeedCell(props: NeedCellProps) {
  return props.editable ? <EditableCell {...props} /> : <ReadOnlyCell {...props} />
})

function background(tone: CellTone, selected: boolean): string | undefined {
  return selected ? 'var(--mantine-color-blue-light)' : TONE_COLORS[tone]
}

/** What both kinds of cell share: grid cell, name, selection, tone, focus. */
function cellAttributes(props: NeedCellProps) {
  const { product, month, need, tone, selected, label, colIndex, cellRef, onFocusCell } = props
  return {
    ref: (el: HTMLTableCellElement | null) => cellRef(product._id, month, el),
    role: 'gridcell',
    'aria-label': cellName(label, need, product.unit),
    'aria-selected': selected,
    'aria-colindex': colIndex,
    className: 'mantine-focus-auto',
    'data-selected': selected || undefined,
    'data-need': need ? 'yes' : undefined,
    'data-tone': tone,
    title: tone === 'none' ? undefined : TONE_LABELS[tone],
    onFocus: (event: FocusEvent<HTMLElement>) => {
      if (event.target === event.currentTarget) onFocusCell(product._id, month)
    },
  } as const
}

/** The quantity as text, right-aligned figures. */
const FIGURES = {
  textAlign: 'right',
  whiteSpace: 'nowrap',
  fontSize: 'var(--mantine-font-size-xs)',
  fontVariantNumeric: 'tabular-nums',
} as const

const modified = (event: KeyboardEvent) => event.ctrlKey || event.metaKey || event.altKey

function ReadOnlyCell(props: NeedCellProps) {
  const { product, month, need, tone, tabbable, lockedMessage, selected, onMoveKey, onOpen, onRefuse } = props
  const onKeyDown = (event: KeyboardEvent<HTMLElement>) => {
    // Tab leaves the grid.
    if (event.key === 'Tab') return
    const start = editStart(event.key, modified(event))
    if (lockedMessage && start && event.key !== 'Enter' && event.key !== 'F2') {
      event.preventDefault()
      onRefuse(product._id, month, lockedMessage)
      return
    }
    if (event.key === 'Enter' && !modified(event)) {
      event.preventDefault()
      onOpen()
      return
    }
    onMoveKey(event, product._id, month)
  }
  return (
    <Table.Td
      {...cellAttributes(props)}
      aria-readonly="true"
      tabIndex={tabbable ? 0 : -1}
      data-readonly="true"
      onKeyDown={onKeyDown}
      style={{
        ...FIGURES,
        height: 34,
        padding: '0 10px',
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

function EditableCell(props: NeedCellProps) {
  const { product, month, need, tone, tabbable, selected, label, onMoveKey, onCommit } = props
  const unit = product.unit
  const stored = need ? formatCellValue(need.quantity, unit) : ''
  // Editing: how it started (null: the cell is navigated, not edited).
  const [mode, setMode] = useState<EditMode | null>(null)
  const [draft, setDraft] = useState<string | null>(null)
  const [saving, setSaving] = useState(false)
  // Whether an edit is open, read by the field's blur, which a key's own
  // handling causes after it has already committed or cancelled.
  const editing = useRef(false)
  const cell = useRef<HTMLTableCellElement | null>(null)
  const field = useRef<HTMLInputElement | null>(null)

  useLayoutEffect(() => {
    const el = field.current
    if (!mode || !el) return
    el.focus()
    el.setSelectionRange(el.value.length, el.value.length)
  }, [mode])

  const begin = (start: EditStart) => {
    if (saving) return
    editing.current = true
    setDraft(start.text === null ? stored : filterCellInput(start.text, unit))
    setMode(start.mode)
  }

  const commit = async () => {
    if (!editing.current) return
    editing.current = false
    setMode(null)
    if (draft === null || draft === stored) {
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

  const cancel = () => {
    editing.current = false
    setMode(null)
    setDraft(null)
  }

  const onCellKeyDown = (event: KeyboardEvent<HTMLElement>) => {
    // The field's keys bubble here: they are its own.
    if (event.target !== event.currentTarget || event.key === 'Tab') return
    const start = editStart(event.key, modified(event))
    if (start) {
      // The typed character is the field's first text: the browser must not type it again.
      event.preventDefault()
      begin(start)
      return
    }
    onMoveKey(event, product._id, month)
  }

  const onFieldKeyDown = (event: KeyboardEvent<HTMLInputElement>) => {
    if (!mode) return
    switch (editKey(event.key, mode)) {
      case 'commit':
        event.preventDefault()
        void commit()
        cell.current?.focus()
        return
      case 'cancel':
        event.preventDefault()
        cancel()
        cell.current?.focus()
        return
      case 'commit-move':
        void commit()
        onMoveKey(event, product._id, month)
        // At the grid's edge the move stays here: back to the cell.
        if (document.activeElement === event.currentTarget) cell.current?.focus()
        return
      default:
    }
  }

  const attributes = cellAttributes(props)
  return (
    <Table.Td
      {...attributes}
      ref={(el: HTMLTableCellElement | null) => {
        cell.current = el
        attributes.ref(el)
      }}
      // While its field has the focus, the field is the stop: Shift+Tab leaves the grid.
      tabIndex={tabbable && !mode ? 0 : -1}
      aria-busy={saving || undefined}
      data-editing={mode ? 'true' : undefined}
      onKeyDown={onCellKeyDown}
      onDoubleClick={() => begin({ mode: 'edit', text: null })}
      style={{ padding: 2, height: 34, cursor: 'cell' }}
    >
      {mode ? (
        <Input
          size="xs"
          ref={field}
          value={draft ?? stored}
          inputMode={isWholeUnit(unit) ? 'numeric' : 'decimal'}
          autoComplete="off"
          aria-label={label}
          onChange={(e) => setDraft(filterCellInput(e.currentTarget.value, unit))}
          onBlur={() => void commit()}
          onKeyDown={onFieldKeyDown}
          styles={{
            input: {
              ...FIGURES,
              backgroundColor: background(tone, selected),
              fontWeight: tone === 'awaits' ? 700 : undefined,
            },
          }}
        />
      ) : (
        // Drawn as a field (it can be edited), but not one: the cell has the focus.
        <Box
          style={{
            ...FIGURES,
            height: 30,
            lineHeight: '28px',
            padding: '0 calc(var(--mantine-spacing-xs) - 1px)',
            border: '1px solid var(--mantine-color-default-border)',
            borderRadius: 'var(--mantine-radius-sm)',
            backgroundColor: background(tone, selected) ?? 'var(--mantine-color-body)',
            fontWeight: tone === 'awaits' ? 700 : undefined,
            opacity: saving ? 0.7 : undefined,
          }}
        >
          {draft ?? stored}
        </Box>
      )}
    </Table.Td>
  )
}
