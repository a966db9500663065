// Rules of the add bar's single need form (PRODUCT §2 "Add bar": one product,
// one month, one quantity). The quantity follows the need cell (PRODUCT §5
// "Need cell") and must be over zero, as a new need (PRODUCT §4).
import { parseCellInput } from '../planner/cellInput'
import type { Month } from '../planner/period'
import type { Unit } from '../types'
import type { Errors } from './common'

export interface SingleNeedValues {
  product: string
  /** "2026-12-01", or "" when none is chosen. */
  month: string
  /** As typed (digits, one comma for kg). */
  quantity: string
}

export type SingleNeedField = keyof SingleNeedValues

export const NEED_FORM_MESSAGES = {
  productRequired: 'Veuillez choisir un produit',
  monthRequired: 'Veuillez choisir un mois',
  monthsRequired: 'Veuillez choisir au moins un mois',
  quantityRequired: 'Veuillez saisir une quantité supérieure à zéro',
  // The daemon's message (core/planning.MsgNeedExists).
  needExists: 'Un besoin existe déjà pour ce produit et ce mois.',
  // The daemon's message (core/planning.MsgPastMonth).
  pastMonth: 'Ce mois est passé : ses besoins ne peuvent plus être modifiés.',
} as const

/** The message for a new need's quantity typed as `text`, or undefined when it is valid. */
export function newQuantityError(text: string, unit: Unit): string | undefined {
  if (text.trim() === '') return NEED_FORM_MESSAGES.quantityRequired
  const parsed = parseCellInput(text, unit)
  if (!parsed.ok) return parsed.message
  if (parsed.value <= 0) return NEED_FORM_MESSAGES.quantityRequired
  return undefined
}

export interface SingleNeedContext {
  /** The unit of a product id, undefined for an unknown product. */
  unitOf(product: string): Unit | undefined
  /** Whether the shop already has a need for this product and month. */
  exists(product: string, month: Month): boolean
  /** The current month: earlier months are closed. */
  current: Month
}

/** Validates the single need form. */
export function validateSingleNeed(values: SingleNeedValues, ctx: SingleNeedContext): Errors<SingleNeedField> {
  const errors: Errors<SingleNeedField> = {}
  const unit = values.product ? ctx.unitOf(values.product) : undefined
  if (!unit) errors.product = NEED_FORM_MESSAGES.productRequired
  if (values.month === '') errors.month = NEED_FORM_MESSAGES.monthRequired
  else if (values.month < ctx.current) errors.month = NEED_FORM_MESSAGES.pastMonth
  else if (unit && ctx.exists(values.product, values.month)) errors.month = NEED_FORM_MESSAGES.needExists
  const quantity = newQuantityError(values.quantity, unit ?? 'kg')
  if (quantity) errors.quantity = quantity
  return errors
}
