import { describe, expect, it } from 'vitest'
import {
  LANDSCAPE_SPAN,
  PORTRAIT_SPAN,
  addMonths,
  currentMonth,
  isPastMonth,
  monthOf,
  movePeriod,
  periodMonths,
  periodStep,
  spanFor,
} from './period'

describe('period', () => {
  it.each([
    [1280, 800, LANDSCAPE_SPAN],
    [800, 800, LANDSCAPE_SPAN],
    [390, 844, PORTRAIT_SPAN],
    [799, 800, PORTRAIT_SPAN],
  ])('a %dx%d window shows %d months', (w, h, span) => {
    expect(spanFor(w, h)).toBe(span)
  })

  it('moves by half the span, rounded half up', () => {
    expect(periodStep(8)).toBe(4)
    expect(periodStep(3)).toBe(2)
    expect(periodStep(1)).toBe(1)
  })

  it.each([
    ['2026-12-01', 1, '2027-01-01'],
    ['2026-12-01', 13, '2028-01-01'],
    ['2027-01-01', -1, '2026-12-01'],
    ['2027-01-01', -13, '2025-12-01'],
    ['2026-05-01', 0, '2026-05-01'],
    ['2026-03-01', -24, '2024-03-01'],
  ])('addMonths(%s, %d) = %s', (month, n, want) => {
    expect(addMonths(month, n)).toBe(want)
  })

  it('lists the months of a period across a year end', () => {
    expect(periodMonths('2026-11-01', 3)).toEqual(['2026-11-01', '2026-12-01', '2027-01-01'])
    expect(periodMonths('2026-11-01', 8)).toHaveLength(8)
    expect(periodMonths('2026-11-01', 8).at(-1)).toBe('2027-06-01')
  })

  it('moves the period back and forth', () => {
    expect(movePeriod('2026-11-01', 8, 1)).toBe('2027-03-01')
    expect(movePeriod('2026-11-01', 8, -1)).toBe('2026-07-01')
    expect(movePeriod('2026-11-01', 3, 1)).toBe('2027-01-01')
    expect(movePeriod('2026-01-01', 3, -1)).toBe('2025-11-01')
  })

  it('takes the current month in Paris, not in UTC', () => {
    // 23:30 UTC on 31 December is already 1 January in Paris.
    expect(currentMonth(new Date('2026-12-31T23:30:00Z'))).toBe('2027-01-01')
    expect(currentMonth(new Date('2026-11-20T10:00:00Z'))).toBe('2026-11-01')
    expect(monthOf('2026-12-24')).toBe('2026-12-01')
  })

  it('knows past months', () => {
    expect(isPastMonth('2026-10-01', '2026-11-01')).toBe(true)
    expect(isPastMonth('2026-11-01', '2026-11-01')).toBe(false)
    expect(isPastMonth('2027-01-01', '2026-11-01')).toBe(false)
  })
})
