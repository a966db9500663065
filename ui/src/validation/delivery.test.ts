import { describe, expect, it } from 'vitest'
import { DELIVERY_MESSAGES, isDay, parseQuantity, validateDelivery } from './delivery'

const ctx = { units: { t: 'kg', l: 'un' } as const, minDate: '2026-11-21', maxDate: '2026-11-30' }

describe('validateDelivery', () => {
  it.each([
    ['2026-11-21', undefined],
    ['2026-11-30', undefined],
    ['2026-11-20', DELIVERY_MESSAGES.date], // today: tomorrow at the earliest
    ['2026-12-01', DELIVERY_MESSAGES.date], // after the month
    ['2026-11-31', DELIVERY_MESSAGES.date],
    ['21/11/2026', DELIVERY_MESSAGES.date],
    ['', DELIVERY_MESSAGES.date],
    [null, DELIVERY_MESSAGES.date],
  ])('date %s', (date, message) => {
    expect(validateDelivery({ date, sent: {} }, ctx).date).toBe(message)
  })

  it.each([
    ['t', '12', undefined],
    ['t', '12,5', undefined],
    ['t', '12.25', undefined],
    ['t', '0', undefined],
    ['t', ' 3 ', undefined],
    ['t', '-1', DELIVERY_MESSAGES.negative],
    ['t', '', DELIVERY_MESSAGES.negative],
    ['t', '1,234', DELIVERY_MESSAGES.weight],
    ['t', '12kg', DELIVERY_MESSAGES.weight],
    ['t', '1,2,3', DELIVERY_MESSAGES.weight],
    ['l', '3', undefined],
    ['l', '2,5', DELIVERY_MESSAGES.pieces],
    ['l', 'deux', DELIVERY_MESSAGES.pieces],
    ['l', '-2', DELIVERY_MESSAGES.negative],
    ['t', '-0', undefined],
    ['l', '3,0', undefined],
    // Issue 13: more than two decimals is refused at every magnitude.
    ['t', '12345,675', DELIVERY_MESSAGES.weight],
    ['t', '99999,995', DELIVERY_MESSAGES.weight],
    ['t', '2,505', DELIVERY_MESSAGES.weight],
    ['l', '5000,004', DELIVERY_MESSAGES.pieces],
    ['t', '12345,67', undefined],
    ['t', '2,500', undefined],
    ['t', '10000000000000', DELIVERY_MESSAGES.weight],
  ])('line %s sent %j', (line, value, message) => {
    expect(validateDelivery({ date: '2026-11-22', sent: { [line]: value } }, ctx)[`sent:${line}`]).toBe(message)
  })

  it('reads days and quantities', () => {
    expect(isDay('2028-02-29')).toBe(true)
    expect(isDay('2027-02-29')).toBe(false)
    expect(parseQuantity('12,5')).toBe(12.5)
    expect(parseQuantity('-3')).toBe(-3)
    expect(parseQuantity('+2')).toBe(2)
    expect(parseQuantity('abc')).toBeNaN()
    expect(parseQuantity('')).toBeNaN()
    expect(parseQuantity('12345,675')).toBeNaN()
    expect(parseQuantity('0,1')).toBe(0.1)
  })
})
