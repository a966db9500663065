// Read-only views of the entities the planner's pure functions accept, so
// that they take both plain objects and valtio snapshots (which are deeply
// read-only).
import type { Need, Product, UserType } from '../types'

/** T with every property and nested array read-only. */
export type ReadOnly<T> = T extends (infer U)[]
  ? readonly ReadOnly<U>[]
  : T extends object
    ? { readonly [K in keyof T]: ReadOnly<T[K]> }
    : T

export type NeedRO = ReadOnly<Need>
export type ProductRO = ReadOnly<Product>

/** Who looks at the planner: the shop itself, or a producer looking at a shop. */
export interface Viewer {
  type: UserType
  /** The viewer's user id. */
  id: string
}

/** A cell of the grid: one product, one month. */
export interface CellKey {
  product: string
  month: string
}

/** The key of a cell in maps and refs. */
export function cellId(product: string, month: string): string {
  return `${product}|${month}`
}
