import { describe, expect, it } from 'vitest'
import {
  capitalizeFirst,
  dayOf,
  formatDay,
  formatEUR,
  formatLongDay,
  formatMonthYear,
  formatNumber,
  formatQuantity,
  formatTime,
} from './format'

// Intl uses a narrow no-break space (U+202F) between thousands and a
// no-break space (U+00A0) before the euro sign.
const nb = (s: string) => s.replace(/[\u202f\u00a0]/g, ' ')

describe('format', () => {
  it.each([
    [1234.5, '1 234,5'],
    [0.125, '0,13'],
    [12, '12'],
    [-3.1, '-3,1'],
  ])('formatNumber(%s)', (value, expected) => {
    expect(nb(formatNumber(value))).toBe(expected)
  })

  it('formats euros', () => {
    expect(nb(formatEUR(12.5))).toBe('12,50 €')
    expect(nb(formatEUR(1500))).toBe('1 500,00 €')
  })

  it('formats quantities with their unit', () => {
    expect(nb(formatQuantity(12.345, 'kg'))).toBe('12,35 kg')
    expect(nb(formatQuantity(3.6, 'un'))).toBe('4 un')
  })

  it('formats months and days without shifting time zones', () => {
    expect(formatMonthYear('2026-12-01')).toBe('décembre 2026')
    expect(formatMonthYear('2027-01')).toBe('janvier 2027')
    expect(formatDay('2026-12-24')).toBe('24/12/2026')
    expect(formatLongDay('2026-12-24')).toBe('jeudi 24 décembre 2026')
    expect(formatDay('garbage')).toBe('garbage')
  })

  it('capitalizes the first letter of a heading only', () => {
    expect(capitalizeFirst('mardi 15 juin 2027')).toBe('Mardi 15 juin 2027')
    expect(capitalizeFirst(formatLongDay('2026-12-24'))).toBe('Jeudi 24 décembre 2026')
    expect(capitalizeFirst('école')).toBe('École')
    expect(capitalizeFirst('')).toBe('')
  })

  it('reads timestamps in Europe/Paris', () => {
    expect(dayOf('2026-12-24T23:30:00Z')).toBe('2026-12-25')
    expect(dayOf('2026-07-14T21:59:00Z')).toBe('2026-07-14')
    expect(formatTime('2026-12-24T13:05:00Z')).toBe('14:05')
    expect(formatTime('2026-07-14T13:05:00Z')).toBe('15:05')
  })
})
