// The stock projection served by GET /api/supply (core/supply, PRODUCT §18).
// Quantities are in the product's unit; dates are "YYYY-MM-DD".
import type { Unit } from '../types'

/** Risk of a cell (PRODUCT §4): 0 covered, 1 partly covered, 2 nothing available. */
export type RiskLevel = 0 | 1 | 2

/** What one producer brings on a day. */
export interface Incoming {
  /** Producer id. */
  readonly producer: string
  readonly quantity: number
}

/** One cell of the grid with the assumptions of its advice. */
export interface SupplyDay {
  readonly date: string
  readonly need: number
  readonly deliveries: readonly Incoming[]
  readonly delivered: number
  /** Local stock left in the morning, whole units. */
  readonly morningStock: number
  readonly risk: RiskLevel
  /** Platform order proposed for the next day. */
  readonly proposedOrder: number
  readonly nextDate: string
  readonly nextNeed: number
  readonly nextDeliveries: readonly Incoming[]
  /** Chart series: morning stock with the planned deliveries. */
  readonly current: number
  /** Chart series: morning stock without the window's deliveries. */
  readonly baseline: number
}

/** One product line. */
export interface SupplyProduct {
  /** Product id. */
  readonly product: string
  readonly name: string
  readonly unit: Unit
  readonly averageDailySales: number
  readonly deliveredLast7Days: number
  readonly atRisk: boolean
  readonly days: readonly SupplyDay[]
}

/** The answer of GET /api/supply. */
export interface SupplyProjection {
  readonly start: string
  readonly end: string
  readonly days: number
  readonly today: string
  readonly dates: readonly string[]
  readonly hasDeliveries: boolean
  readonly products: readonly SupplyProduct[]
  readonly producers: readonly { readonly _id: string; readonly name: string }[]
}
