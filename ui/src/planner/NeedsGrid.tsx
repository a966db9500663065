import { Table, Text } from '@mantine/core'
import { useElementSize } from '@mantine/hooks'
import { type KeyboardEvent, useCallback, useEffect, useLayoutEffect, useMemo, useRef } from 'react'
import { stickyColumn } from '../components/sticky'
import { formatMonthYear } from '../format'
import { CELL_MESSAGES } from './cellInput'
import { EmptyPlanner } from './EmptyPlanner'
import { type CellKey, cellId } from './model'
import { nextCell } from './navigation'
import { NeedCell } from './NeedCell'
import { isPastMonth, type Month } from './period'
import type { EmptyReason, PlannerRow } from './rows'
import { useRowWindow } from './useRowWindow'

/** The products' column, kept in place when the grid scrolls sideways. */
const STICKY_COLUMN = stickyColumn()
const STICKY_CORNER = stickyColumn({ header: true })

/**
 * The planner grid (PRODUCT §2 "Keyboard"; the WAI-ARIA APG "Data Grid"
 * pattern): products in rows, the period's months in columns. It is one
 * tab stop (roving tabindex: the selected cell when shown, else the first,
 * has tabindex 0, every other -1), so Tab enters and leaves it; inside, the
 * arrows, Home, End, Ctrl+Home, Ctrl+End, Page Up and Page Down move from
 * cell to cell (navigation.ts), focusing a cell selects it. Rows and cells
 * carry aria-rowindex and aria-colindex, each cell is named by its product
 * and month (NeedCell). With `editable`, the cells of the current and later
 * months edit like a spreadsheet's (Enter, F2 or a digit; see NeedCell);
 * past months, and every cell of a read-only grid (the producer's view),
 * are read-only (`aria-readonly`), Enter there asks for the detail
 * (`onOpen`). Without rows, the month headers stay and the body says why it
 * is empty.
 *
 * Only the rows in view (and a few around them) are in the DOM, with the
 * tab stop's row wherever it is (useRowWindow): aria-rowcount gives the
 * whole grid's size and each row its aria-rowindex. A move to a row out of
 * view scrolls it into view first, then focuses its cell once rendered.
 */
export function NeedsGrid({
  rows,
  empty,
  months,
  current,
  editable,
  selection,
  onSelect,
  onCommit,
  onRefuse,
  onOpen,
}: {
  rows: readonly PlannerRow[]
  empty: EmptyReason | null
  months: readonly Month[]
  current: Month
  editable: boolean
  selection: CellKey | null
  onSelect: (cell: CellKey) => void
  onCommit: (product: string, month: Month, text: string) => Promise<void>
  onRefuse: (product: string, month: Month, message: string) => void
  /** Enter on a cell that does not edit (the planner opens the detail sheet on a phone). */
  onOpen: () => void
}) {
  const inputs = useRef(new Map<string, HTMLElement>())
  // Where the keyboard focus was, to put it back if its row goes away
  // (its last need of the period was deleted).
  const lastFocus = useRef<{ product: string; row: number; col: number } | null>(null)
  // A cell to focus as soon as its row renders (a move to a row out of view).
  const pendingFocus = useRef<{ id: string; row: number; col: number } | null>(null)
  const box = useRef<HTMLDivElement>(null)
  const head = useElementSize<HTMLTableSectionElement>()

  // Each month's name, once for the grid's cells (an Intl formatter each time costs).
  const monthNames = useMemo(() => months.map(formatMonthYear), [months])

  const position = useMemo(() => {
    const rowOf = new Map(rows.map((r, i) => [r.product._id, i]))
    const colOf = new Map(months.map((m, i) => [m, i]))
    return { rowOf, colOf }
  }, [rows, months])

  // The grid's one tab stop: the selected cell when shown, else the first
  // cell.
  const tabStop = useMemo(() => {
    if (selection && position.rowOf.has(selection.product) && position.colOf.has(selection.month))
      return { row: position.rowOf.get(selection.product) ?? 0, id: cellId(selection.product, selection.month) }
    return rows[0] && months[0] ? { row: 0, id: cellId(rows[0].product._id, months[0]) } : null
  }, [selection, position, rows, months])

  const view = useRowWindow({
    count: rows.length,
    scrollElement: useCallback(() => box.current, []),
    headerHeight: head.height,
    keep: tabStop?.row ?? null,
    rowKey: useCallback((i: number) => rows[i]?.product._id ?? String(i), [rows]),
  })
  const { scrollTo } = view

  const focusAt = useCallback(
    (row: number, col: number) => {
      const r = rows[row]
      const m = months[col]
      if (!r || !m) return
      const id = cellId(r.product._id, m)
      scrollTo(row)
      const el = inputs.current.get(id)
      pendingFocus.current = null
      if (el) el.focus()
      else pendingFocus.current = { id, row, col }
    },
    [rows, months, scrollTo],
  )

  // After each render: the cell a move went to, once its row is there.
  useLayoutEffect(() => {
    const pending = pendingFocus.current
    const el = pending ? inputs.current.get(pending.id) : undefined
    if (!el) return
    pendingFocus.current = null
    el.focus()
  })

  const cellRef = useCallback((product: string, month: Month, el: HTMLElement | null) => {
    if (el) inputs.current.set(cellId(product, month), el)
    else inputs.current.delete(cellId(product, month))
  }, [])

  const onFocusCell = useCallback(
    (product: string, month: Month) => {
      // Focused some other way (a click) before the move's row came: the move is dropped.
      if (pendingFocus.current?.id !== cellId(product, month)) pendingFocus.current = null
      lastFocus.current = {
        product,
        row: position.rowOf.get(product) ?? 0,
        col: position.colOf.get(month) ?? 0,
      }
      onSelect({ product, month })
    },
    [position, onSelect],
  )

  const onMoveKey = useCallback(
    (event: KeyboardEvent<HTMLElement>, product: string, month: Month) => {
      // A key pressed before the last move's row has rendered moves on from there.
      const pending = pendingFocus.current
      const row = pending ? pending.row : position.rowOf.get(product)
      const col = pending ? pending.col : position.colOf.get(month)
      if (row === undefined || col === undefined) return
      const target = nextCell({ row, col }, event.key, event.ctrlKey || event.metaKey, rows.length, months.length)
      if (!target) return
      event.preventDefault()
      if (target.row === row && target.col === col) return
      focusAt(target.row, target.col)
    },
    [position, rows.length, months.length, focusAt],
  )

  useEffect(() => {
    const last = lastFocus.current
    if (!last || position.rowOf.has(last.product)) return
    // The focused cell's row is gone: keep the keyboard in the grid.
    if (document.activeElement && document.activeElement !== document.body) return
    if (rows.length === 0) return
    focusAt(Math.min(last.row, rows.length - 1), Math.min(last.col, months.length - 1))
  }, [rows, months, position, focusAt])

  return (
    // Scrolled in its own box both ways, so that the months' header and the
    // products' column stay in place (sticky) whichever way the user moves.
    <Table.ScrollContainer ref={box} minWidth={months.length * 76 + 120} maxHeight="75vh" type="native">
      <Table
        stickyHeader
        withTableBorder
        withColumnBorders
        verticalSpacing={4}
        horizontalSpacing={6}
        role="grid"
        aria-label="Besoins par produit et par mois"
        aria-rowcount={rows.length + 1 + (empty ? 1 : 0)}
        aria-colcount={months.length + 1}
        aria-readonly={editable ? undefined : true}
      >
        <Table.Thead ref={head.ref}>
          <Table.Tr aria-rowindex={1}>
            <Table.Th scope="col" aria-colindex={1} style={STICKY_CORNER}>
              Produit
            </Table.Th>
            {months.map((m, j) => (
              <Table.Th
                key={m}
                scope="col"
                aria-colindex={j + 2}
                ta="center"
                data-past={isPastMonth(m, current) || undefined}
              >
                {monthNames[j]}
              </Table.Th>
            ))}
          </Table.Tr>
        </Table.Thead>
        <Table.Tbody>
          {empty ? (
            <Table.Tr aria-rowindex={2}>
              <Table.Td role="gridcell" aria-colindex={1} colSpan={months.length + 1}>
                <EmptyPlanner reason={empty} />
              </Table.Td>
            </Table.Tr>
          ) : null}
          {view.slots.map((slot) => {
            if (slot.kind === 'gap')
              return (
                // The height of the rows not rendered, so the box scrolls as if they were.
                <tr key={slot.key} aria-hidden="true" style={{ height: slot.height }}>
                  <td colSpan={months.length + 1} style={{ padding: 0, border: 0 }} />
                </tr>
              )
            const i = slot.index
            const row = rows[i]
            return (
              <Table.Tr key={row.product._id} ref={view.measure} data-index={i} aria-rowindex={i + 2 + (empty ? 1 : 0)}>
                <Table.Th scope="row" aria-colindex={1} style={STICKY_COLUMN}>
                  <Text size="sm" fw={600} span>
                    {row.product.name}
                  </Text>{' '}
                  <Text size="xs" c="dimmed" span>
                    ({row.product.unit})
                  </Text>
                </Table.Th>
                {months.map((m, j) => {
                  const past = isPastMonth(m, current)
                  return (
                    <NeedCell
                      key={m}
                      product={row.product}
                      month={m}
                      need={row.needs.get(m)}
                      tone={row.tones.get(m) ?? 'none'}
                      editable={editable && !past}
                      tabbable={tabStop?.id === cellId(row.product._id, m)}
                      lockedMessage={editable && past ? CELL_MESSAGES.pastMonth : undefined}
                      selected={selection?.product === row.product._id && selection.month === m}
                      label={`${row.product.name}, ${monthNames[j]}`}
                      colIndex={j + 2}
                      cellRef={cellRef}
                      onFocusCell={onFocusCell}
                      onMoveKey={onMoveKey}
                      onCommit={onCommit}
                      onRefuse={onRefuse}
                      onOpen={onOpen}
                    />
                  )
                })}
              </Table.Tr>
            )
          })}
        </Table.Tbody>
      </Table>
    </Table.ScrollContainer>
  )
}
