import { describe, expect, it } from 'vitest'
import { SERIES, chartMonths, emptySeries } from './purchases'

describe('chartMonths', () => {
  it('covers 17 months from 4 months back', () => {
    const months = chartMonths('2026-11-20')
    expect(months).toHaveLength(17)
    expect(months[0]).toBe('2026-07-01')
    expect(months[4]).toBe('2026-11-01')
    expect(months[16]).toBe('2027-11-01')
  })

  it('crosses year boundaries both ways', () => {
    expect(chartMonths('2027-02-03').slice(0, 5)).toEqual([
      '2026-10-01',
      '2026-11-01',
      '2026-12-01',
      '2027-01-01',
      '2027-02-01',
    ])
  })

  it('gives nothing for an unreadable day', () => {
    expect(chartMonths('bientôt')).toEqual([])
  })
})

describe('emptySeries', () => {
  it('names the series as PRODUCT does', () => {
    expect(SERIES).toEqual({ planned: 'achats prévus', done: 'achats réalisés' })
  })

  it('gives zeros over the whole window until the figures come', () => {
    const s = emptySeries('2026-11-20')
    expect(s.months).toEqual(chartMonths('2026-11-20'))
    expect(s.planned).toEqual(Array(17).fill(0))
    expect(s.done).toEqual(Array(17).fill(0))
  })
})
