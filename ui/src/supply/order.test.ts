import { describe, expect, it } from 'vitest'
import { atRiskCount, orderByRisk, visibleProducts, windowNeed } from './order'
import type { SupplyProduct } from './types'

function product(id: string, atRisk: boolean, needs: number[]): SupplyProduct {
  return {
    product: id,
    name: id[0].toUpperCase() + id.slice(1),
    unit: 'kg',
    averageDailySales: 1,
    deliveredLast7Days: 0,
    atRisk,
    days: needs.map((need, i) => ({
      date: `2026-11-${16 + i}`,
      need,
      deliveries: [],
      delivered: 0,
      morningStock: 0,
      risk: 0,
      proposedOrder: 0,
      nextDate: `2026-11-${17 + i}`,
      nextNeed: 0,
      nextDeliveries: [],
      current: 0,
      baseline: 0,
    })),
  }
}

// By name, as the daemon answers.
const products = [
  product('abricot', false, [50, 50]),
  product('carotte', true, [1, 2]),
  product('courgette', true, [30, 30]),
  product('endive', false, [5, 0]),
  product('navet', true, [1, 2]),
  product('poireau', false, [0, 0]),
]
const ids = (ps: readonly SupplyProduct[]) => ps.map((p) => p.product)

describe('orderByRisk', () => {
  it('puts the products at risk first, each group by its need over the window, largest first, then by name', () => {
    expect(ids(orderByRisk(products))).toEqual(['courgette', 'carotte', 'navet', 'abricot', 'endive', 'poireau'])
  })
  it('keeps the answer as it was', () => {
    const before = ids(products)
    orderByRisk(products)
    expect(ids(products)).toEqual(before)
  })
  it('sums the need of the days shown', () => {
    expect(windowNeed(products[2])).toBe(60)
  })
})

describe('visibleProducts', () => {
  it('keeps every product, or only those at risk', () => {
    expect(ids(visibleProducts(products, false))).toHaveLength(6)
    expect(ids(visibleProducts(products, true))).toEqual(['courgette', 'carotte', 'navet'])
  })
})

describe('atRiskCount', () => {
  it('counts the products at risk', () => {
    expect(atRiskCount(products)).toBe('3 produits à risque sur 6')
    expect(atRiskCount(products.slice(0, 2))).toBe('1 produit à risque sur 2')
    expect(atRiskCount([products[0]])).toBe('Aucun produit à risque sur 1')
  })
})
