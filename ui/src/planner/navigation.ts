// Spreadsheet-like moves between the planner's cells, pure. Positions are
// (row, column) indexes in the grid as shown.
//
// - Arrows move one cell, stopping at the edges.
// - Enter moves down, Shift+Enter up, stopping at the edges.
// - Tab moves right and wraps to the next row's first cell; Shift+Tab moves
//   left and wraps to the previous row's last cell. From the grid's last
//   (first) cell Tab (Shift+Tab) is not handled, so focus leaves the grid as
//   usual for keyboard users.
// - Other keys are not handled.

export interface CellPos {
  row: number
  col: number
}

/** The cell to go to, or null when the key is not a move (the browser keeps it). */
export function nextCell(pos: CellPos, key: string, shift: boolean, rows: number, cols: number): CellPos | null {
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
    case 'Enter':
      return { row: clampRow(pos.row + (shift ? -1 : 1)), col: pos.col }
    case 'Tab': {
      const index = pos.row * cols + pos.col + (shift ? -1 : 1)
      if (index < 0 || index >= rows * cols) return null
      return { row: Math.floor(index / cols), col: index % cols }
    }
    default:
      return null
  }
}
