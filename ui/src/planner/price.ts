// The one price truth of a need (PRODUCT §2 "Price information", §15 "Price
// comparison", issue 37), pure. The server decides which purchases an
// average counts and whether it may be shown (core/trade Compare: the
// commitments counted for the need's product and month; the département's
// figure only with the platform's): the UI shows what it answers, the
// shop price for a 30 % margin derived from it. Without an average, the
// catalogue's reference producer price stands in, labelled as a reference,
// and no figure of anyone's purchases is shown.
import { formatEUR } from '../format'
import type { PriceComparison, PriceFigure, Unit } from '../types'
import { unitLabel } from '../units'

/** Shop price = purchase price × 1.3 (a 30 % margin on the purchase price). */
export const SHOP_PRICE_FACTOR = 1.3

export type PriceView =
  | {
      kind: 'average'
      national: PriceFigure
      /** The shop's département's figure; null when withheld or unknown. */
      local: PriceFigure | null
      /** The shop's département, "" when its address has none. */
      area: string
      shopPrice: number
    }
  | {
      kind: 'withheld'
      /** The catalogue's reference producer price and its × 1.3; null without one. */
      reference: { refPrice: number; shopPrice: number } | null
    }

const round2 = (x: number) => Math.round(x * 100) / 100

/**
 * What a need's price information shows, from its comparison and the
 * product's catalogue price: the average in full (national, local, shop
 * price) or none of it.
 */
export function priceView(comparison: PriceComparison, refPrice: number | undefined): PriceView {
  const { national, local, area } = comparison
  if (national) {
    return {
      kind: 'average',
      national,
      local: local ?? null,
      area,
      shopPrice: round2(national.average * SHOP_PRICE_FACTOR),
    }
  }
  return {
    kind: 'withheld',
    reference:
      refPrice !== undefined && refPrice > 0 ? { refPrice, shopPrice: round2(refPrice * SHOP_PRICE_FACTOR) } : null,
  }
}

/** "2,10 € / kg", "1,50 € / pièce". */
export function perUnit(value: number, unit: Unit): string {
  return `${formatEUR(value)} / ${unitLabel(unit)}`
}
