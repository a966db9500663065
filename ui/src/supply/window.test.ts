import { describe, expect, it } from 'vitest'
import {
  addDays,
  currentWeekStart,
  isHighDensity,
  mondayOf,
  shiftStart,
  stepSize,
  todayInParis,
  windowDates,
  windowLength,
} from './window'

describe('supply window', () => {
  it.each([
    [390, false], // a phone, whatever its pixel ratio
    [820, false], // a tablet
    [1279, false],
    [1280, true],
    [1440, true],
    [Number.NaN, false],
  ])('a screen %s px wide is high density: %s', (width, high) => {
    expect(isHighDensity(width)).toBe(high)
  })

  it('shows 5 days stepping by 1, or 8 stepping by 3 on high-density screens (PRODUCT §9)', () => {
    expect([windowLength(false), stepSize(false)]).toEqual([5, 1])
    expect([windowLength(true), stepSize(true)]).toEqual([8, 3])
  })

  it.each([
    ['2026-11-20', '2026-11-16'], // Friday
    ['2026-11-16', '2026-11-16'], // a Monday is its own start
    ['2026-11-22', '2026-11-16'], // Sunday ends the week
    ['2026-12-02', '2026-11-30'], // across months
    ['2027-01-01', '2026-12-28'], // across years
    ['2028-03-01', '2028-02-28'], // after a leap day
  ])('the week of %s starts on %s', (day, monday) => {
    expect(mondayOf(day)).toBe(monday)
  })

  it('counts days on the calendar, whatever the clock changes', () => {
    expect(addDays('2026-03-28', 2)).toBe('2026-03-30') // summer time starts on the 29th
    expect(addDays('2026-10-24', 2)).toBe('2026-10-26') // winter time on the 25th
    expect(addDays('2026-11-30', 1)).toBe('2026-12-01')
    expect(addDays('2026-03-01', -1)).toBe('2026-02-28')
    expect(() => addDays('16/11/2026', 1)).toThrow()
  })

  it('takes today in Paris', () => {
    // 23:30 UTC on Sunday the 22nd is already Monday the 23rd in Paris.
    const late = new Date('2026-11-22T23:30:00Z')
    expect(todayInParis(late)).toBe('2026-11-23')
    expect(currentWeekStart(late)).toBe('2026-11-23')
    expect(currentWeekStart(new Date('2026-11-20T10:00:00Z'))).toBe('2026-11-16')
  })

  it('lists the days of a window and moves it', () => {
    expect(windowDates('2026-11-16', 5)).toEqual(['2026-11-16', '2026-11-17', '2026-11-18', '2026-11-19', '2026-11-20'])
    expect(windowDates('2026-11-27', 8).at(-1)).toBe('2026-12-04')
    expect(shiftStart('2026-11-16', 1, stepSize(false))).toBe('2026-11-17')
    expect(shiftStart('2026-11-16', -1, stepSize(true))).toBe('2026-11-13')
    expect(shiftStart('2026-11-30', 1, 3)).toBe('2026-12-03')
  })
})
