// The planner grid's keyboard, pure (the WAI-ARIA APG "Data Grid" pattern,
// editable like a spreadsheet). Positions are (row, column) indexes in the
// grid as shown.
//
// The grid is one tab stop: Tab and Shift+Tab are never handled here, so
// they leave the grid. Between cells:
//
// - Arrows move one cell, stopping at the edges.
// - Home and End go to the row's first and last cell; Ctrl+Home and
//   Ctrl+End to the grid's first and last cell.
// - Page Up and Page Down move PAGE_ROWS rows, stopping at the edges.
//
// An editable cell starts editing (see editStart) on Enter, F2 or a typed
// digit; while it edits, editKey says what a key does.

export interface CellPos {
  row: number
  col: number
}

/** The rows Page Up and Page Down move. */
export const PAGE_ROWS = 10

/** The cell to go to, or null when the key is not a move (the browser keeps it). */
export function nextCell(pos: CellPos, key: string, ctrl: boolean, rows: number, cols: number): CellPos | null {
  if (rows <= 0 || cols <= 0) return null
  const clampRow = (r: number) => Math.min(rows - 1, Math.max(0, r))
  const clampCol = (c: number) => Math.min(cols - 1, Math.max(0, c))
  switch (key) {
    case 'ArrowUp':
      return { row: clampRow(pos.row - 1), col: pos.col }
    case 'ArrowDown':
      return { row: clampRow(pos.row + 1), col: pos.col }
    case 'ArrowLeft':
      return { row: pos.row, col: clampCol(pos.col - 1) }
    case 'ArrowRight':
      return { row: pos.row, col: clampCol(pos.col + 1) }
    case 'Home':
      return ctrl ? { row: 0, col: 0 } : { row: pos.row, col: 0 }
    case 'End':
      return ctrl ? { row: rows - 1, col: cols - 1 } : { row: pos.row, col: cols - 1 }
    case 'PageUp':
      return { row: clampRow(pos.row - PAGE_ROWS), col: pos.col }
    case 'PageDown':
      return { row: clampRow(pos.row + PAGE_ROWS), col: pos.col }
    default:
      return null
  }
}

/**
 * How an edit started, which decides what the arrows do while it lasts:
 * `replace` (a typed key replaced the value, as typing into a spreadsheet's
 * cell) — the arrows commit and move; `edit` (Enter, F2, a double click:
 * the stored value to change) — Left, Right, Home and End move the caret,
 * Up and Down commit and move.
 */
export type EditMode = 'replace' | 'edit'

/** The start of an edit: its mode and the text it starts from (null: the stored value). */
export interface EditStart {
  mode: EditMode
  text: string | null
}

/** Characters that start an edit, replacing the value (a minus sign too, so that a negative value is told why it is refused). */
const REPLACING = /^[0-9,.-]$/

/**
 * What a key pressed on a cell (not editing) starts: Enter or F2 edits the
 * stored value; a digit (or a comma, a dot, a minus sign) replaces it;
 * Backspace or Delete empties it. Null for any other key, and with Ctrl,
 * Alt or Meta (the browser's shortcuts).
 */
export function editStart(key: string, modified: boolean): EditStart | null {
  if (modified) return null
  if (key === 'Enter' || key === 'F2') return { mode: 'edit', text: null }
  if (key === 'Backspace' || key === 'Delete') return { mode: 'replace', text: '' }
  if (REPLACING.test(key)) return { mode: 'replace', text: key }
  return null
}

/** What a key does while a cell edits. */
export type EditKey = 'commit' | 'cancel' | 'commit-move' | null

/**
 * While editing: Enter commits and Escape cancels, both back to the cell;
 * arrows as EditMode says; Tab is the browser's (the grid is left, the blur
 * commits); any other key goes to the text field (null).
 */
export function editKey(key: string, mode: EditMode): EditKey {
  switch (key) {
    case 'Enter':
      return 'commit'
    case 'Escape':
      return 'cancel'
    case 'ArrowUp':
    case 'ArrowDown':
      return 'commit-move'
    case 'ArrowLeft':
    case 'ArrowRight':
      return mode === 'replace' ? 'commit-move' : null
    default:
      return null
  }
}
