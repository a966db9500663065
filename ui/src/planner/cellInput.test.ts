import { describe, expect, it } from 'vitest'
import { need, proposal } from '../test/needs'
import { CELL_MESSAGES, decideCellWrite, filterCellInput, formatCellValue, parseCellInput } from './cellInput'

describe('filterCellInput', () => {
  it.each([
    ['12', 'kg', '12'],
    ['12.5', 'kg', '12,5'],
    ['12,5', 'kg', '12,5'],
    ['1,2,3', 'kg', '1,23'],
    ['1.2.3', 'kg', '1,23'],
    ['12a b€', 'kg', '12'],
    [' 1 200 ', 'kg', '1200'],
    ['-3', 'kg', '-3'],
    ['3-', 'kg', '3'],
    ['--3', 'kg', '-3'],
    ['12,5', 'un', '125'],
    ['12.5', 'un', '125'],
    ['abc', 'un', ''],
  ] as const)('%j (%s) → %j', (raw, unit, want) => {
    expect(filterCellInput(raw, unit)).toBe(want)
  })
})

describe('parseCellInput', () => {
  it.each([
    ['', 'kg', 0],
    ['  ', 'kg', 0],
    ['0', 'kg', 0],
    ['12', 'kg', 12],
    ['12,5', 'kg', 12.5],
    ['12.25', 'kg', 12.25],
    ['12,', 'kg', 12],
    [',5', 'kg', 0.5],
    ['007', 'un', 7],
    ['1000000', 'un', 1_000_000],
    ['12345,67', 'kg', 12345.67],
    ['2,500', 'kg', 2.5], // trailing zeros do not count
  ] as const)('%j (%s) reads %d', (text, unit, value) => {
    expect(parseCellInput(text, unit)).toEqual({ ok: true, value })
  })

  it.each([
    ['-1', 'kg', CELL_MESSAGES.negative],
    ['-', 'un', CELL_MESSAGES.negative],
    ['1,234', 'kg', CELL_MESSAGES.badWeight],
    [',', 'kg', CELL_MESSAGES.badWeight],
    ['1,2,3', 'kg', CELL_MESSAGES.badWeight],
    ['12a', 'kg', CELL_MESSAGES.badWeight],
    ['1,5', 'un', CELL_MESSAGES.badPieces],
    ['x', 'un', CELL_MESSAGES.badPieces],
    ['1000000,01', 'kg', CELL_MESSAGES.tooLarge],
    ['99999999', 'un', CELL_MESSAGES.tooLarge],
    // Issue 13: more than two decimals is refused at every magnitude.
    ['12345,675', 'kg', CELL_MESSAGES.badWeight],
    ['99999,995', 'kg', CELL_MESSAGES.badWeight],
    ['2,505', 'kg', CELL_MESSAGES.badWeight],
    ['5000,004', 'un', CELL_MESSAGES.badPieces],
    ['1000000,001', 'kg', CELL_MESSAGES.tooLarge], // the bound first, as the daemon
    ['1,2', 'un', CELL_MESSAGES.badPieces],
  ] as const)('%j (%s) is refused', (text, unit, message) => {
    expect(parseCellInput(text, unit)).toEqual({ ok: false, message })
  })
})

describe('formatCellValue', () => {
  it('writes a comma and no grouping', () => {
    expect(formatCellValue(1234.5, 'kg')).toBe('1234,5')
    expect(formatCellValue(0.25, 'kg')).toBe('0,25')
    expect(formatCellValue(12, 'un')).toBe('12')
  })
})

describe('decideCellWrite', () => {
  const current = '2026-11-01'
  const dec = '2026-12-01'
  const existing = need('tomate', dec, 100)

  it('creates on an empty cell with a value over 0', () => {
    expect(decideCellWrite(undefined, '12,5', 'kg', dec, current)).toEqual({ kind: 'create', quantity: 12.5 })
  })

  it('does nothing for an empty cell left empty or set to 0', () => {
    expect(decideCellWrite(undefined, '', 'kg', dec, current)).toEqual({ kind: 'none' })
    expect(decideCellWrite(undefined, '0', 'kg', dec, current)).toEqual({ kind: 'none' })
    expect(decideCellWrite(undefined, '0,00', 'kg', dec, current)).toEqual({ kind: 'none' })
  })

  it('updates an existing need with a new value', () => {
    expect(decideCellWrite(existing, '80', 'kg', dec, current)).toEqual({
      kind: 'update',
      need: existing,
      quantity: 80,
    })
  })

  it('does nothing when the value is unchanged', () => {
    expect(decideCellWrite(existing, '100', 'kg', dec, current)).toEqual({ kind: 'none' })
    expect(decideCellWrite(existing, '100,00', 'kg', dec, current)).toEqual({ kind: 'none' })
  })

  it.each(['', '0', '0,0'])('deletes an existing need with %j', (text) => {
    expect(decideCellWrite(existing, text, 'kg', dec, current)).toEqual({ kind: 'delete', need: existing })
  })

  it('deletes a need stored at 0 when emptied', () => {
    const zero = need('tomate', dec, 0)
    expect(decideCellWrite(zero, '', 'kg', dec, current)).toEqual({ kind: 'delete', need: zero })
  })

  it('refuses a value under accepted + proposed, and the deletion of a held need', () => {
    const held = need('tomate', dec, 100, {
      quantityAccepted: 30,
      quantityProposed: 20,
      proposals: [proposal('f1', 'accepted', 30), proposal('f2', 'proposed', 20)],
    })
    expect(decideCellWrite(held, '49', 'kg', dec, current)).toEqual({
      kind: 'invalid',
      message: CELL_MESSAGES.belowReserved,
    })
    expect(decideCellWrite(held, '50', 'kg', dec, current)).toEqual({ kind: 'update', need: held, quantity: 50 })
    expect(decideCellWrite(held, '0', 'kg', dec, current)).toEqual({
      kind: 'invalid',
      message: CELL_MESSAGES.belowReserved,
    })
    // A pending proposal of quantity 0 (a correction ending a commitment) still holds the need.
    const correcting = need('tomate', dec, 10, { proposals: [proposal('f1', 'proposed', 0)] })
    expect(decideCellWrite(correcting, '', 'kg', dec, current)).toEqual({
      kind: 'invalid',
      message: CELL_MESSAGES.belowReserved,
    })
    // A rejected proposal does not.
    const rejected = need('tomate', dec, 10, { proposals: [proposal('f1', 'rejected', 5)] })
    expect(decideCellWrite(rejected, '', 'kg', dec, current)).toEqual({ kind: 'delete', need: rejected })
  })

  it('refuses malformed and negative values', () => {
    expect(decideCellWrite(existing, '-5', 'kg', dec, current)).toEqual({
      kind: 'invalid',
      message: CELL_MESSAGES.negative,
    })
    expect(decideCellWrite(undefined, '1,5', 'un', dec, current)).toEqual({
      kind: 'invalid',
      message: CELL_MESSAGES.badPieces,
    })
  })

  it('refuses any change in a past month', () => {
    const past = need('tomate', '2026-10-01', 10)
    expect(decideCellWrite(past, '12', 'kg', '2026-10-01', current)).toEqual({
      kind: 'invalid',
      message: CELL_MESSAGES.pastMonth,
    })
    expect(decideCellWrite(past, '', 'kg', '2026-10-01', current)).toEqual({
      kind: 'invalid',
      message: CELL_MESSAGES.pastMonth,
    })
    expect(decideCellWrite(undefined, '3', 'kg', '2026-10-01', current)).toEqual({
      kind: 'invalid',
      message: CELL_MESSAGES.pastMonth,
    })
    expect(decideCellWrite(past, '10', 'kg', '2026-10-01', current)).toEqual({ kind: 'none' })
  })
})
