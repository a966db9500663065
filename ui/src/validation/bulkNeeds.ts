// Rules of the add bar's bulk form (PRODUCT §2 "Add bar", §3 bulk payload): one
// product, several months, a quantity over zero for each. Existing needs of
// those months are overwritten (the daemon refuses, for all months, a
// quantity under what producers hold).
import type { Month } from '../planner/period'
import type { Unit } from '../types'
import type { Errors } from './common'
import { NEED_FORM_MESSAGES, newQuantityError } from './singleNeed'

export interface BulkNeedsValues {
  product: string
  /** Chosen months, "2026-12-01". */
  months: string[]
  /** Quantity typed per month. */
  quantities: Record<string, string>
}

/** `product`, `months`, or `quantity:<month>` for the quantity of one month. */
export type BulkNeedsField = 'product' | 'months' | `quantity:${string}`

/** The field of one month's quantity. */
export const quantityField = (month: Month): BulkNeedsField => `quantity:${month}`

/** Validates the bulk form. */
export function validateBulkNeeds(
  values: BulkNeedsValues,
  ctx: { unitOf(product: string): Unit | undefined; current: Month },
): Errors<BulkNeedsField> {
  const errors: Errors<BulkNeedsField> = {}
  const unit = values.product ? ctx.unitOf(values.product) : undefined
  if (!unit) errors.product = NEED_FORM_MESSAGES.productRequired
  if (values.months.length === 0) errors.months = NEED_FORM_MESSAGES.monthsRequired
  else if (values.months.some((m) => m < ctx.current)) errors.months = NEED_FORM_MESSAGES.pastMonth
  for (const month of values.months) {
    const message = newQuantityError(values.quantities[month] ?? '', unit ?? 'kg')
    if (message) errors[quantityField(month)] = message
  }
  return errors
}
