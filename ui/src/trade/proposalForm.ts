// The proposal form's rules (PRODUCT §5 "Proposal form"): French decimal
// input and the exact messages. The daemon checks the same rules with the
// same texts (core/trade, core/planning). Quantities and prices follow the
// decimal rule of ../validation/decimal: at most two decimals (whole
// pieces), more is refused, never rounded.
import { MAX_QUANTITY } from '../planner/cellInput'
import type { Errors } from '../validation/common'
import { type TypedNumber, readDecimal } from '../validation/decimal'
import type { Unit } from '../types'
import { isWholeUnit } from '../units'

export const PROPOSAL_MESSAGES = {
  badPrice: 'Veuillez saisir un prix correct',
  pricePositive: 'Veuillez saisir un prix supérieur à zéro',
  quantityPositive: 'Veuillez saisir une quantité supérieure à zéro',
  quantityOrZero: 'Veuillez saisir une quantité (zéro autorisé)',
  badWeight: 'Veuillez saisir un poids correct',
  badPieces: 'Veuillez saisir un nombre de pièces correct',
  // The daemon's message (core/planning.MsgTooLarge).
  tooLarge: 'La valeur saisie est trop grande.',
} as const

/** The highest unit price the daemon accepts, in EUR HT (core/trade.MaxPrice). */
export const MAX_PRICE = 10_000

/** "La quantité saisie excède le besoin restant ({max}{unit})", max written the French way. */
export function exceedsMessage(max: number, unit: Unit): string {
  return `La quantité saisie excède le besoin restant (${frenchNumber(max)}${unit})`
}

/** 12.5 → "12,5", 3 → "3": a comma, no grouping, at most two decimals. */
export function frenchNumber(value: number): string {
  return String(Math.round(value * 100) / 100).replace('.', ',')
}

/** A number as the form shows it (comma decimal). */
export function toInput(value: number): string {
  return frenchNumber(value)
}

/**
 * Keyboard input (PRODUCT §5): digits and one comma; a dot becomes a comma;
 * any other character, and any separator after the first, is dropped.
 */
export function sanitize(raw: string): string {
  let out = ''
  let separator = false
  for (const ch of raw.replaceAll('.', ',')) {
    if (ch >= '0' && ch <= '9') out += ch
    else if (ch === ',' && !separator) {
      separator = true
      out += ch
    }
  }
  return out
}

/** Whether a key press may go into the field holding `current` (digits, one separator). */
export function acceptsKey(key: string, current: string): boolean {
  if (key.length !== 1) return true // navigation and editing keys
  if (key >= '0' && key <= '9') return true
  return (key === ',' || key === '.') && !current.includes(',')
}

const DECIMAL = /^\d+(,\d+)?$|^,\d+$|^\d+,$/

/** Reads a French decimal ("12,5", ",5", "3,": digits and a comma, no sign), null when malformed or empty. */
function readFrench(value: string): TypedNumber | null {
  const v = value.trim()
  return DECIMAL.test(v) ? readDecimal(v) : null
}

/** The number of a French decimal ("12,5", ",5", "3,"), null when malformed or empty. */
export function parseFrench(value: string): number | null {
  return readFrench(value)?.value ?? null
}

export interface ProposalValues {
  quantity: string
  price: string
}

export type ProposalField = keyof ProposalValues

export interface ProposalContext {
  unit: Unit
  /** The most this producer may hold on the need (its remaining need). */
  max: number
  /** A correction: zero is allowed (it ends the commitment). */
  zeroAllowed: boolean
}

/** The message for a typed price, or undefined (core/trade parsePrice, in its order). */
function priceError(text: string): string | undefined {
  if (text === '') return PROPOSAL_MESSAGES.pricePositive
  const p = readFrench(text)
  if (!p) return PROPOSAL_MESSAGES.badPrice
  if (p.value === 0) return PROPOSAL_MESSAGES.pricePositive
  if (p.value > MAX_PRICE) return PROPOSAL_MESSAGES.tooLarge
  if (p.hundredths === null) return PROPOSAL_MESSAGES.badPrice
  return undefined
}

/** The message for a typed quantity, or undefined (core/trade parseQuantity, in its order). */
function quantityError(text: string, ctx: ProposalContext): string | undefined {
  const low = ctx.zeroAllowed ? PROPOSAL_MESSAGES.quantityOrZero : PROPOSAL_MESSAGES.quantityPositive
  const bad = isWholeUnit(ctx.unit) ? PROPOSAL_MESSAGES.badPieces : PROPOSAL_MESSAGES.badWeight
  if (text === '') return low
  const q = readFrench(text)
  if (!q) return bad
  if (q.value > MAX_QUANTITY) return PROPOSAL_MESSAGES.tooLarge
  if (q.hundredths === null || (isWholeUnit(ctx.unit) && q.hundredths % 100 !== 0)) return bad
  if (q.hundredths === 0 && !ctx.zeroAllowed) return PROPOSAL_MESSAGES.quantityPositive
  if (q.hundredths > Math.round(ctx.max * 100)) return exceedsMessage(Math.max(0, ctx.max), ctx.unit)
  return undefined
}

/** Validates the form: every PRODUCT §5 rule, one message per field. */
export function validateProposal(values: ProposalValues, ctx: ProposalContext): Errors<ProposalField> {
  const errors: Errors<ProposalField> = {}
  const price = priceError(values.price.trim())
  if (price) errors.price = price
  const quantity = quantityError(values.quantity.trim(), ctx)
  if (quantity) errors.quantity = quantity
  return errors
}

/** The body of `PUT /api/proposals/…` from valid values, exactly as typed. */
export function offerOf(values: ProposalValues): { quantity: number; price: number } {
  const exact = (text: string) => (readFrench(text)?.hundredths ?? 0) / 100
  return { quantity: exact(values.quantity), price: exact(values.price) }
}

/** A need's figures as the remaining-need rule reads them. */
export interface NeedFigures {
  readonly quantity: number
  readonly quantityAvailable: number
  readonly proposals: readonly { readonly producer: string; readonly status: string; readonly quantity: number }[]
}

/**
 * The most a producer may hold on a need: the need less what other
 * producers have committed or proposed. The totals count everyone (even
 * when a producer sees only its own proposals), so it is what is available
 * plus what the producer itself holds (its commitment, or its pending
 * proposal when larger).
 */
export function remainingFor(need: NeedFigures, producerId: string): number {
  let committed = 0
  let pending = 0
  for (const p of need.proposals) {
    if (p.producer !== producerId) continue
    if (p.status === 'accepted') committed = p.quantity
    else if (p.status === 'proposed') pending = p.quantity
  }
  return Math.round((need.quantityAvailable + Math.max(committed, pending)) * 100) / 100
}
