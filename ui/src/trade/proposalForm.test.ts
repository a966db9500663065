import { describe, expect, it } from 'vitest'
import {
  PROPOSAL_MESSAGES as M,
  acceptsKey,
  exceedsMessage,
  offerOf,
  parseFrench,
  remainingFor,
  sanitize,
  validateProposal,
} from './proposalForm'

const kg = { unit: 'kg' as const, max: 50, zeroAllowed: false }
const pieces = { unit: 'un' as const, max: 10, zeroAllowed: false }
const correction = { unit: 'kg' as const, max: 50, zeroAllowed: true }

describe('validateProposal', () => {
  it.each([
    // [quantity, price, context, quantity error, price error]
    ['12,5', '2,35', kg, undefined, undefined],
    ['50', '2', kg, undefined, undefined],
    ['50,004', '2', kg, M.badWeight, undefined], // refused, never rounded
    ['50,01', '2', kg, 'La quantité saisie excède le besoin restant (50kg)', undefined],
    ['11', '2', pieces, 'La quantité saisie excède le besoin restant (10un)', undefined],
    ['', '2', kg, M.quantityPositive, undefined],
    ['0', '2', kg, M.quantityPositive, undefined],
    ['0,001', '2', kg, M.badWeight, undefined],
    ['', '2', correction, M.quantityOrZero, undefined],
    ['0', '2', correction, undefined, undefined],
    ['12,5,3', '2', kg, M.badWeight, undefined],
    ['1e3', '2', kg, M.badWeight, undefined],
    ['-1', '2', kg, M.badWeight, undefined],
    ['2,5', '2', pieces, M.badPieces, undefined],
    ['deux', '2', pieces, M.badPieces, undefined],
    ['3,0', '2', pieces, undefined, undefined],
    ['5', '', kg, undefined, M.pricePositive],
    ['5', '0', kg, undefined, M.pricePositive],
    ['5', '0,001', kg, undefined, M.badPrice],
    ['5', '2.5', kg, undefined, M.badPrice],
    ['5', 'abc', kg, undefined, M.badPrice],
    ['5', '-2', kg, undefined, M.badPrice],
    ['5', '1,234', kg, undefined, M.badPrice], // refused, never rounded
    // Issue 13: the decimal rule at every magnitude, as the daemon applies it.
    ['12345,675', '2', { ...kg, max: 20000 }, M.badWeight, undefined],
    ['99999,995', '2', { ...kg, max: 200000 }, M.badWeight, undefined],
    ['5000,004', '2', { ...pieces, max: 10000 }, M.badPieces, undefined],
    ['12345,67', '2', { ...kg, max: 20000 }, undefined, undefined],
    ['50,000', '2', kg, undefined, undefined], // trailing zeros do not count
    ['5', '9999,995', kg, undefined, M.badPrice],
    ['5', '2,505', kg, undefined, M.badPrice],
    ['5', '9999,99', kg, undefined, undefined],
    ['5', '10000', kg, undefined, undefined],
    ['5', '10000,01', kg, undefined, M.tooLarge],
    ['5', '10000,001', kg, undefined, M.tooLarge],
    ['1000000,01', '2', { ...kg, max: 2_000_000 }, M.tooLarge, undefined],
  ] as const)('quantity %j, price %j', (quantity, price, ctx, q, p) => {
    const errors = validateProposal({ quantity, price }, ctx)
    expect(errors.quantity).toBe(q)
    expect(errors.price).toBe(p)
  })

  it('writes the maximum the French way', () => {
    expect(exceedsMessage(12.5, 'kg')).toBe('La quantité saisie excède le besoin restant (12,5kg)')
    expect(exceedsMessage(0, 'kg')).toBe('La quantité saisie excède le besoin restant (0kg)')
    expect(validateProposal({ quantity: '13', price: '1' }, { ...kg, max: 12.5 }).quantity).toBe(
      exceedsMessage(12.5, 'kg'),
    )
  })
})

describe('input', () => {
  it('keeps digits and one comma, turning a dot into a comma', () => {
    expect(sanitize('12.5')).toBe('12,5')
    expect(sanitize('1a2b,3')).toBe('12,3')
    expect(sanitize('1,2,3')).toBe('1,23')
    expect(sanitize('1.2.3')).toBe('1,23')
    expect(sanitize('-4 kg')).toBe('4')
  })
  it('accepts digits and one separator key', () => {
    expect(acceptsKey('7', '12')).toBe(true)
    expect(acceptsKey(',', '12')).toBe(true)
    expect(acceptsKey('.', '12')).toBe(true)
    expect(acceptsKey(',', '12,5')).toBe(false)
    expect(acceptsKey('.', '12,5')).toBe(false)
    expect(acceptsKey('e', '12')).toBe(false)
    expect(acceptsKey('-', '')).toBe(false)
    expect(acceptsKey('Backspace', '12,5')).toBe(true)
  })
  it('reads French decimals', () => {
    expect(parseFrench('12,5')).toBe(12.5)
    expect(parseFrench(',5')).toBe(0.5)
    expect(parseFrench('3,')).toBe(3)
    expect(parseFrench('')).toBeNull()
    expect(parseFrench(',')).toBeNull()
  })
  it('sends the offer exactly as typed', () => {
    expect(offerOf({ quantity: '12,34', price: '2,35' })).toEqual({ quantity: 12.34, price: 2.35 })
    expect(offerOf({ quantity: '7', price: '1,5' })).toEqual({ quantity: 7, price: 1.5 })
    expect(offerOf({ quantity: '12345,67', price: '9999,99' })).toEqual({ quantity: 12345.67, price: 9999.99 })
    expect(offerOf({ quantity: '0,1', price: ',5' })).toEqual({ quantity: 0.1, price: 0.5 })
  })
})

describe('remainingFor', () => {
  const need = (available: number, proposals: { producer: string; status: string; quantity: number }[]) => ({
    quantity: 100,
    quantityAvailable: available,
    proposals,
  })
  it('is what is available plus what the producer holds', () => {
    expect(remainingFor(need(40, []), 'p1')).toBe(40)
    expect(remainingFor(need(40, [{ producer: 'p1', status: 'proposed', quantity: 20 }]), 'p1')).toBe(60)
    expect(
      remainingFor(
        need(10, [
          { producer: 'p1', status: 'accepted', quantity: 30 },
          { producer: 'p1', status: 'proposed', quantity: 50 },
        ]),
        'p1',
      ),
    ).toBe(60)
    expect(
      remainingFor(
        need(10, [
          { producer: 'p1', status: 'accepted', quantity: 30 },
          { producer: 'p1', status: 'proposed', quantity: 5 },
        ]),
        'p1',
      ),
    ).toBe(40)
    expect(
      remainingFor(
        need(10, [
          { producer: 'p1', status: 'rejected', quantity: 30 },
          { producer: 'p2', status: 'accepted', quantity: 50 },
        ]),
        'p1',
      ),
    ).toBe(10)
  })
})
