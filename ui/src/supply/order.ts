// The order and the filter of the supply grid's rows, pure. The daemon
// answers the products by name (GET /api/supply); the screen shows the
// signals first: the products flagged at risk (PRODUCT §4 "Supply risk"),
// then the others, each group by the need of the days shown, largest first,
// then by name. "À risque seulement" keeps the flagged ones.
import type { SupplyProduct } from './types'

/** The filter's label. */
export const AT_RISK_ONLY = 'À risque seulement'

/** Said instead of the grid when the filter leaves nothing. */
export const AT_RISK_NONE = 'Aucun produit à risque sur cette période.'

/** What a product needs over the days shown, in its unit. */
export function windowNeed(product: SupplyProduct): number {
  return product.days.reduce((sum, day) => sum + day.need, 0)
}

/** The rows in the screen's order: at risk first, then by need over the window (largest first), then by name. */
export function orderByRisk(products: readonly SupplyProduct[]): SupplyProduct[] {
  const need = new Map(products.map((p) => [p.product, windowNeed(p)]))
  const byName = new Intl.Collator('fr', { sensitivity: 'base' })
  return [...products].sort(
    (a, b) =>
      Number(b.atRisk) - Number(a.atRisk) ||
      (need.get(b.product) ?? 0) - (need.get(a.product) ?? 0) ||
      byName.compare(a.name, b.name),
  )
}

/** The rows shown: in the screen's order, only the flagged ones with `atRiskOnly`. */
export function visibleProducts(products: readonly SupplyProduct[], atRiskOnly: boolean): SupplyProduct[] {
  const ordered = orderByRisk(products)
  return atRiskOnly ? ordered.filter((p) => p.atRisk) : ordered
}

/** "3 produits à risque sur 60", "1 produit à risque sur 4", "Aucun produit à risque sur 12". */
export function atRiskCount(products: readonly SupplyProduct[]): string {
  const n = products.filter((p) => p.atRisk).length
  const total = products.length
  if (n === 0) return `Aucun produit à risque sur ${total}`
  return `${n} produit${n > 1 ? 's' : ''} à risque sur ${total}`
}
