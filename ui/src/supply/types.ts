// The stock projection served by GET /api/supply (core/supply, PRODUCT §18),
// named after the schemas of the OpenAPI document (../schema.gen.ts, `make
// ui-types`), read-only throughout as the screens read them (valtio's
// snapshots). Quantities are in the product's unit; dates are "YYYY-MM-DD".
import type { Snapshot } from 'valtio'
import type { components } from '../schema.gen'

type Schemas = { [K in keyof components['schemas']]: Snapshot<components['schemas'][K]> }

/** The answer of GET /api/supply. */
export type SupplyProjection = Schemas['SupplyProjection']
/** One product line. */
export type SupplyProduct = Schemas['SupplyProductProjection']
/** One cell of the grid with the assumptions of its advice. */
export type SupplyDay = Schemas['SupplyDayProjection']
/** What one producer brings on a day. */
export type Incoming = Schemas['SupplyIncoming']
/** Risk of a cell (PRODUCT §4): 0 covered, 1 partly covered, 2 nothing available. */
export type RiskLevel = SupplyDay['risk']
