import { describe, expect, it } from 'vitest'
import { neighbourDay, productDay } from './detailDay'

const dates = ['2026-11-16', '2026-11-17', '2026-11-18', '2026-11-19', '2026-11-20']

describe('productDay', () => {
  it.each([
    [
      'keeps the day selected on the same product',
      '2026-11-20',
      { product: 'tomate', date: '2026-11-18' },
      '2026-11-18',
    ],
    [
      'ignores a day selected on another product',
      '2026-11-20',
      { product: 'poireau', date: '2026-11-18' },
      '2026-11-20',
    ],
    ['opens on today without selection', '2026-11-17', null, '2026-11-17'],
    ['opens on the first day when today is outside the window', '2026-11-30', null, '2026-11-16'],
    [
      'ignores a selection the window no longer shows',
      '2026-11-30',
      { product: 'tomate', date: '2026-11-12' },
      '2026-11-16',
    ],
  ])('%s', (_, today, selected, want) => {
    expect(productDay({ dates, today }, 'tomate', selected)).toBe(want)
  })

  it('has no day in an empty window', () => {
    expect(productDay({ dates: [], today: '2026-11-20' }, 'tomate', null)).toBeNull()
  })
})

describe('neighbourDay', () => {
  it.each([
    ['2026-11-17', -1, '2026-11-16'],
    ['2026-11-17', 1, '2026-11-18'],
    ['2026-11-16', -1, null],
    ['2026-11-20', 1, null],
    ['2026-11-25', 1, null],
  ] as const)('from %s by %i: %s', (date, direction, want) => {
    expect(neighbourDay(dates, date, direction)).toBe(want)
  })
})
