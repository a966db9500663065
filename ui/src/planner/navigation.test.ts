import { describe, expect, it } from 'vitest'
import { nextCell } from './navigation'

// A grid of 3 rows by 4 columns.
const move = (row: number, col: number, key: string, shift = false) => nextCell({ row, col }, key, shift, 3, 4)

describe('nextCell', () => {
  it.each([
    ['ArrowRight', false, 1, 1, { row: 1, col: 2 }],
    ['ArrowLeft', false, 1, 1, { row: 1, col: 0 }],
    ['ArrowUp', false, 1, 1, { row: 0, col: 1 }],
    ['ArrowDown', false, 1, 1, { row: 2, col: 1 }],
    ['Enter', false, 1, 1, { row: 2, col: 1 }],
    ['Enter', true, 1, 1, { row: 0, col: 1 }],
    ['Tab', false, 1, 1, { row: 1, col: 2 }],
    ['Tab', true, 1, 1, { row: 1, col: 0 }],
  ])('%s (shift %s) from (%d,%d)', (key, shift, row, col, want) => {
    expect(move(row, col, key, shift)).toEqual(want)
  })

  it('stops arrows and Enter at the edges', () => {
    expect(move(0, 0, 'ArrowUp')).toEqual({ row: 0, col: 0 })
    expect(move(0, 0, 'ArrowLeft')).toEqual({ row: 0, col: 0 })
    expect(move(2, 3, 'ArrowDown')).toEqual({ row: 2, col: 3 })
    expect(move(2, 3, 'ArrowRight')).toEqual({ row: 2, col: 3 })
    expect(move(2, 1, 'Enter')).toEqual({ row: 2, col: 1 })
    expect(move(0, 1, 'Enter', true)).toEqual({ row: 0, col: 1 })
  })

  it('wraps Tab across rows and lets focus leave at the ends', () => {
    expect(move(0, 3, 'Tab')).toEqual({ row: 1, col: 0 })
    expect(move(1, 0, 'Tab', true)).toEqual({ row: 0, col: 3 })
    expect(move(2, 3, 'Tab')).toBeNull()
    expect(move(0, 0, 'Tab', true)).toBeNull()
  })

  it('ignores other keys and empty grids', () => {
    expect(move(1, 1, 'a')).toBeNull()
    expect(move(1, 1, 'Escape')).toBeNull()
    expect(move(1, 1, 'Home')).toBeNull()
    expect(nextCell({ row: 0, col: 0 }, 'ArrowDown', false, 0, 4)).toBeNull()
  })
})
