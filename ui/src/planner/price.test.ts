import { describe, expect, it } from 'vitest'
import { SHOP_PRICE_FACTOR, priceHint } from './price'

const products = [
  { _id: 'tomate', name: 'Tomate', unit: 'kg' as const, refPrice: 2.1 },
  { _id: 'melon', name: 'Melon', unit: 'un' as const, refPrice: 0 },
]

describe('priceHint', () => {
  it('uses the observed average times 1.3', () => {
    expect(SHOP_PRICE_FACTOR).toBe(1.3)
    expect(priceHint('tomate', [{ product: 'tomate', value: 2 }], products)).toEqual({
      kind: 'observed',
      average: 2,
      shopPrice: 2.6,
    })
  })

  it('averages several records of a product and rounds to cents', () => {
    const prices = [
      { product: 'tomate', value: 1.5 },
      { product: 'tomate', value: 2.25 },
      { product: 'melon', value: 9 },
    ]
    expect(priceHint('tomate', prices, products)).toEqual({ kind: 'observed', average: 1.88, shopPrice: 2.44 })
  })

  it('falls back to the catalogue reference price', () => {
    expect(priceHint('tomate', [{ product: 'melon', value: 3 }], products)).toEqual({
      kind: 'reference',
      refPrice: 2.1,
      shopPrice: 2.73,
    })
    expect(priceHint('tomate', [{ product: 'tomate', value: 0 }], products).kind).toBe('reference')
  })

  it('has nothing to say without any price', () => {
    expect(priceHint('melon', [], products)).toEqual({ kind: 'none' })
    expect(priceHint('inconnu', [], products)).toEqual({ kind: 'none' })
  })
})
