import { describe, expect, it } from 'vitest'
import { need } from '../test/needs'
import { linkedCell, linkedNeedId, startShowing } from './deepLink'

describe('linkedNeedId', () => {
  it.each([
    ['?need=n1', 'n1'],
    ['need=n1', 'n1'],
    ['?tab=x&need=abc-DEF_12', 'abc-DEF_12'],
    ['?need=', null],
    ['?need=%20', null],
    ['', null],
    ['?besoin=n1', null],
  ])('%j → %j', (search, id) => {
    expect(linkedNeedId(search)).toBe(id)
  })
})

describe('startShowing', () => {
  it.each([
    // 8 months from November 2026: November 2026 … June 2027.
    ['2026-11-01', 8, '2026-11-01', '2026-11-01'],
    ['2026-11-01', 8, '2027-06-01', '2026-11-01'],
    ['2026-11-01', 8, '2027-07-01', '2027-07-01'],
    ['2026-11-01', 8, '2026-10-01', '2026-10-01'],
    // 3 months on a phone: November … January.
    ['2026-11-01', 3, '2027-01-01', '2026-11-01'],
    ['2026-11-01', 3, '2027-02-01', '2027-02-01'],
  ])('from %s over %i months, %s → %s', (start, span, month, expected) => {
    expect(startShowing(start, span, month)).toBe(expected)
  })
})

describe('linkedCell', () => {
  const needs = [need('tomate', '2026-12-01', 100), need('pomme', '2027-09-01', 50)]

  it('selects the need’s cell and keeps a period that shows its month', () => {
    expect(linkedCell(needs, needs[0]._id, '2026-11-01', 8)).toEqual({
      selection: { product: 'tomate', month: '2026-12-01' },
      start: '2026-11-01',
    })
  })

  it('moves the period to the need’s month when it is not shown', () => {
    expect(linkedCell(needs, needs[1]._id, '2026-11-01', 3)).toEqual({
      selection: { product: 'pomme', month: '2027-09-01' },
      start: '2027-09-01',
    })
  })

  it('does nothing for an id the needs do not hold', () => {
    expect(linkedCell(needs, 'inconnu', '2026-11-01', 8)).toBeNull()
    expect(linkedCell([], needs[0]._id, '2026-11-01', 8)).toBeNull()
  })
})
