import { describe, expect, it } from 'vitest'
import { CELL_MESSAGES } from '../planner/cellInput'
import type { Unit } from '../types'
import { validateBulkNeeds } from './bulkNeeds'
import { NEED_FORM_MESSAGES, validateSingleNeed } from './singleNeed'

const units: Record<string, Unit> = { tomate: 'kg', melon: 'un' }
const ctx = {
  unitOf: (p: string) => units[p],
  exists: (p: string, m: string) => p === 'tomate' && m === '2026-12-01',
  current: '2026-11-01',
}

describe('validateSingleNeed', () => {
  const valid = { product: 'tomate', month: '2027-01-01', quantity: '12,5' }

  it('accepts a product, a month and a quantity', () => {
    expect(validateSingleNeed(valid, ctx)).toEqual({})
    expect(validateSingleNeed({ product: 'melon', month: '2026-11-01', quantity: '3' }, ctx)).toEqual({})
  })

  it.each([
    [{ product: '' }, 'product', NEED_FORM_MESSAGES.productRequired],
    [{ product: 'banane' }, 'product', NEED_FORM_MESSAGES.productRequired],
    [{ month: '' }, 'month', NEED_FORM_MESSAGES.monthRequired],
    [{ month: '2026-10-01' }, 'month', NEED_FORM_MESSAGES.pastMonth],
    [{ month: '2026-12-01' }, 'month', NEED_FORM_MESSAGES.needExists],
    [{ quantity: '' }, 'quantity', NEED_FORM_MESSAGES.quantityRequired],
    [{ quantity: '0' }, 'quantity', NEED_FORM_MESSAGES.quantityRequired],
    [{ quantity: '0,00' }, 'quantity', NEED_FORM_MESSAGES.quantityRequired],
    [{ quantity: '-2' }, 'quantity', CELL_MESSAGES.negative],
    [{ quantity: '1,234' }, 'quantity', CELL_MESSAGES.badWeight],
    [{ quantity: '12345,675' }, 'quantity', CELL_MESSAGES.badWeight],
    [{ quantity: '99999,995' }, 'quantity', CELL_MESSAGES.badWeight],
    [{ product: 'melon', quantity: '5000,004' }, 'quantity', CELL_MESSAGES.badPieces],
    [{ product: 'melon', quantity: '1,5' }, 'quantity', CELL_MESSAGES.badPieces],
    [{ quantity: '2000000' }, 'quantity', CELL_MESSAGES.tooLarge],
  ] as const)('%j: %s says %s', (change, field, message) => {
    expect(validateSingleNeed({ ...valid, ...change }, ctx)).toEqual({ [field]: message })
  })
})

describe('validateBulkNeeds', () => {
  const months = ['2026-12-01', '2027-01-01']

  it('accepts a quantity per month', () => {
    expect(
      validateBulkNeeds({ product: 'tomate', months, quantities: { '2026-12-01': '10', '2027-01-01': '7,5' } }, ctx),
    ).toEqual({})
  })

  it('asks for a product, a month and every quantity', () => {
    expect(validateBulkNeeds({ product: '', months: [], quantities: {} }, ctx)).toEqual({
      product: NEED_FORM_MESSAGES.productRequired,
      months: NEED_FORM_MESSAGES.monthsRequired,
    })
    expect(validateBulkNeeds({ product: 'melon', months, quantities: { '2026-12-01': '1,5' } }, ctx)).toEqual({
      'quantity:2026-12-01': CELL_MESSAGES.badPieces,
      'quantity:2027-01-01': NEED_FORM_MESSAGES.quantityRequired,
    })
  })

  it('refuses past months', () => {
    expect(
      validateBulkNeeds({ product: 'tomate', months: ['2026-10-01'], quantities: { '2026-10-01': '3' } }, ctx),
    ).toEqual({
      months: NEED_FORM_MESSAGES.pastMonth,
    })
  })
})
