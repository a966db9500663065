import type { Product, Unit } from '../types'

/** A product's name and unit, with a fallback for an unknown id. */
export function productOf(products: ReadonlyMap<string, Product>, id: string): { name: string; unit: Unit } {
  const p = products.get(id)
  return p ? { name: p.name, unit: p.unit } : { name: id, unit: 'kg' }
}

/** A quantity as the forms show it: "12,5". */
export function typed(value: number): string {
  return String(value).replace('.', ',')
}
