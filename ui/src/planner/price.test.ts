import { describe, expect, it } from 'vitest'
import { SHOP_PRICE_FACTOR, priceView } from './price'

const comparison = {
  product: 'tomate',
  month: '2026-12-01',
  area: '74',
  national: { area: 'FR', average: 1.9, purchases: 4 },
  local: { area: '74', average: 1.8, purchases: 3 },
}

describe('priceView', () => {
  it('shows the average in full: national, local, and × 1.3 rounded to cents', () => {
    expect(SHOP_PRICE_FACTOR).toBe(1.3)
    expect(priceView(comparison, 2.1)).toEqual({
      kind: 'average',
      national: comparison.national,
      local: comparison.local,
      area: '74',
      shopPrice: 2.47,
    })
    expect(priceView({ ...comparison, local: null }, 2.1)).toMatchObject({ kind: 'average', local: null })
  })

  it('withheld, keeps nothing of the figures, not even a local one, and falls back on the catalogue', () => {
    expect(priceView({ ...comparison, national: null }, 2.1)).toEqual({
      kind: 'withheld',
      reference: { refPrice: 2.1, shopPrice: 2.73 },
    })
    expect(priceView({ ...comparison, national: null, local: null }, 0)).toEqual({ kind: 'withheld', reference: null })
    expect(priceView({ ...comparison, national: null, local: null }, undefined)).toEqual({
      kind: 'withheld',
      reference: null,
    })
  })
})
