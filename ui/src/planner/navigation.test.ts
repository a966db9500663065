import { describe, expect, it } from 'vitest'
import { editKey, editStart, nextCell, PAGE_ROWS } from './navigation'

// A grid of 3 rows by 4 columns.
const move = (row: number, col: number, key: string, ctrl = false) => nextCell({ row, col }, key, ctrl, 3, 4)

describe('nextCell', () => {
  it.each([
    ['ArrowRight', false, 1, 1, { row: 1, col: 2 }],
    ['ArrowLeft', false, 1, 1, { row: 1, col: 0 }],
    ['ArrowUp', false, 1, 1, { row: 0, col: 1 }],
    ['ArrowDown', false, 1, 1, { row: 2, col: 1 }],
    ['Home', false, 1, 2, { row: 1, col: 0 }],
    ['End', false, 1, 1, { row: 1, col: 3 }],
    ['Home', true, 2, 2, { row: 0, col: 0 }],
    ['End', true, 0, 1, { row: 2, col: 3 }],
    ['PageUp', false, 2, 1, { row: 0, col: 1 }],
    ['PageDown', false, 0, 1, { row: 2, col: 1 }],
  ])('%s (ctrl %s) from (%d,%d)', (key, ctrl, row, col, want) => {
    expect(move(row, col, key, ctrl)).toEqual(want)
  })

  it('stops at the edges', () => {
    expect(move(0, 0, 'ArrowUp')).toEqual({ row: 0, col: 0 })
    expect(move(0, 0, 'ArrowLeft')).toEqual({ row: 0, col: 0 })
    expect(move(2, 3, 'ArrowDown')).toEqual({ row: 2, col: 3 })
    expect(move(2, 3, 'ArrowRight')).toEqual({ row: 2, col: 3 })
  })

  it('moves a page of rows in a long grid', () => {
    expect(nextCell({ row: 3, col: 2 }, 'PageDown', false, 40, 4)).toEqual({ row: 3 + PAGE_ROWS, col: 2 })
    expect(nextCell({ row: 30, col: 2 }, 'PageUp', false, 40, 4)).toEqual({ row: 30 - PAGE_ROWS, col: 2 })
  })

  it('leaves Tab to the browser (the grid is one tab stop), ignores other keys and empty grids', () => {
    expect(move(1, 1, 'Tab')).toBeNull()
    expect(move(1, 1, 'Enter')).toBeNull()
    expect(move(1, 1, 'a')).toBeNull()
    expect(move(1, 1, 'Escape')).toBeNull()
    expect(nextCell({ row: 0, col: 0 }, 'ArrowDown', false, 0, 4)).toBeNull()
  })
})

describe('editStart', () => {
  it.each([
    ['Enter', { mode: 'edit', text: null }],
    ['F2', { mode: 'edit', text: null }],
    ['7', { mode: 'replace', text: '7' }],
    ['0', { mode: 'replace', text: '0' }],
    [',', { mode: 'replace', text: ',' }],
    ['-', { mode: 'replace', text: '-' }],
    ['Backspace', { mode: 'replace', text: '' }],
    ['Delete', { mode: 'replace', text: '' }],
  ])('%s starts an edit', (key, want) => {
    expect(editStart(key, false)).toEqual(want)
  })

  it.each(['a', ' ', 'Tab', 'Escape', 'ArrowDown', 'Shift', 'F5'])('%s does not', (key) => {
    expect(editStart(key, false)).toBeNull()
  })

  it('leaves shortcuts to the browser', () => {
    expect(editStart('7', true)).toBeNull()
    expect(editStart('Enter', true)).toBeNull()
  })
})

describe('editKey', () => {
  it('commits on Enter and cancels on Escape, whatever the mode', () => {
    for (const mode of ['replace', 'edit'] as const) {
      expect(editKey('Enter', mode)).toBe('commit')
      expect(editKey('Escape', mode)).toBe('cancel')
    }
  })

  it('moves on every arrow after typing over a value', () => {
    for (const key of ['ArrowUp', 'ArrowDown', 'ArrowLeft', 'ArrowRight'])
      expect(editKey(key, 'replace')).toBe('commit-move')
  })

  it('keeps Left and Right for the caret when editing the stored value', () => {
    expect(editKey('ArrowLeft', 'edit')).toBeNull()
    expect(editKey('ArrowRight', 'edit')).toBeNull()
    expect(editKey('ArrowUp', 'edit')).toBe('commit-move')
    expect(editKey('ArrowDown', 'edit')).toBe('commit-move')
  })

  it('leaves Tab, Home, End and text to the field', () => {
    for (const key of ['Tab', 'Home', 'End', '5', 'Backspace']) expect(editKey(key, 'replace')).toBeNull()
  })
})
