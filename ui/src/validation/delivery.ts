// Delivery form rules (PRODUCT §5 "Delivery (distributor)"), the same as the
// daemon's (core/delivery): a date from tomorrow, sent quantities positive,
// with at most two decimals for kg and whole pieces (the decimal rule of
// ./decimal: refused, never rounded).
import type { Unit } from '../types'
import type { Errors } from './common'
import { readDecimal } from './decimal'
import { isWholeUnit } from '../units'

export const DELIVERY_MESSAGES = {
  date: 'Veuillez saisir une date valide',
  negative: 'Veuillez saisir une quantité positive',
  weight: 'Veuillez saisir un poids correct',
  pieces: 'Veuillez saisir un nombre de pièces correct',
} as const

export interface DeliveryValues {
  /** "YYYY-MM-DD", or null when cleared. */
  date: string | null
  /** Sent quantity per line id, as typed ("12,5"). */
  sent: Record<string, string>
}

/** Field names: "date", and "sent:<line id>" per line. */
export type DeliveryField = 'date' | `sent:${string}`

export interface DeliveryContext {
  /** Unit per line id. */
  units: Record<string, Unit>
  /** Earliest and latest allowed dates ("YYYY-MM-DD"). */
  minDate: string
  maxDate: string
}

const DAY = /^\d{4}-\d{2}-\d{2}$/

/** Whether a "YYYY-MM-DD" string is a real calendar day. */
export function isDay(value: string): boolean {
  if (!DAY.test(value)) return false
  const [y, m, d] = value.split('-').map(Number)
  const date = new Date(Date.UTC(y, m - 1, d))
  return date.getUTCFullYear() === y && date.getUTCMonth() === m - 1 && date.getUTCDate() === d
}

/** The message for a typed quantity of a unit, or undefined when it is fine. */
export function sentQuantityError(value: string, unit: Unit): string | undefined {
  const v = value.trim()
  if (v === '') return DELIVERY_MESSAGES.negative
  const n = readDecimal(v)
  if (n && n.value < 0) return DELIVERY_MESSAGES.negative
  if (!n || n.hundredths === null) return isWholeUnit(unit) ? DELIVERY_MESSAGES.pieces : DELIVERY_MESSAGES.weight
  if (isWholeUnit(unit) && n.hundredths % 100 !== 0) return DELIVERY_MESSAGES.pieces
  return undefined
}

/** Parses a typed quantity ("12,5" or "12.5") with at most two decimals; NaN otherwise. */
export function parseQuantity(value: string): number {
  const n = readDecimal(value)
  return n && n.hundredths !== null ? n.hundredths / 100 : NaN
}

/** Validates the shop's delivery form. */
export function validateDelivery(values: DeliveryValues, ctx: DeliveryContext): Errors<DeliveryField> {
  const errors: Errors<DeliveryField> = {}
  const date = values.date ?? ''
  if (!isDay(date) || date < ctx.minDate || date > ctx.maxDate) errors.date = DELIVERY_MESSAGES.date
  for (const [id, value] of Object.entries(values.sent)) {
    const message = sentQuantityError(value, ctx.units[id] ?? 'kg')
    if (message) errors[`sent:${id}`] = message
  }
  return errors
}
