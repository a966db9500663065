// Price information of the planner's right pane (PRODUCT §2 "Price hint for a
// store"), pure: the average purchase price observed on the platform for the
// product (the user load's `prices`), times 1.3, is the shop price for a 30 %
// margin. Without an observed price, the catalogue's reference producer price
// stands in, labelled as a reference.
import { formatEUR } from '../format'
import type { Unit } from '../types'
import type { PriceRO, ProductRO } from './model'

/** Shop price = purchase price × 1.3 (a 30 % margin on the purchase price). */
export const SHOP_PRICE_FACTOR = 1.3

export type PriceHint =
  | { kind: 'observed'; average: number; shopPrice: number }
  | { kind: 'reference'; refPrice: number; shopPrice: number }
  | { kind: 'none' }

const round2 = (x: number) => Math.round(x * 100) / 100

/** The price hint of a product; several records of one product are averaged. */
export function priceHint(productId: string, prices: readonly PriceRO[], products: readonly ProductRO[]): PriceHint {
  const values = prices
    .filter((p) => p.product === productId && Number.isFinite(p.value) && p.value > 0)
    .map((p) => p.value)
  if (values.length > 0) {
    const average = round2(values.reduce((a, b) => a + b, 0) / values.length)
    return { kind: 'observed', average, shopPrice: round2(average * SHOP_PRICE_FACTOR) }
  }
  const refPrice = products.find((p) => p._id === productId)?.refPrice
  if (refPrice !== undefined && refPrice > 0) {
    return { kind: 'reference', refPrice, shopPrice: round2(refPrice * SHOP_PRICE_FACTOR) }
  }
  return { kind: 'none' }
}

/** "2,10 € / kg", "1,50 € / pièce". */
export function perUnit(value: number, unit: Unit): string {
  return `${formatEUR(value)} / ${unit === 'un' ? 'pièce' : 'kg'}`
}
