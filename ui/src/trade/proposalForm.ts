// The proposal form's rules (SPEC §5 "Proposal form"): French decimal
// input, rounding per unit and the exact messages. The daemon checks the
// same rules with the same texts (core/trade).
import type { Errors } from '../validation/common'
import type { Unit } from '../types'

export const PROPOSAL_MESSAGES = {
  badPrice: 'Veuillez saisir un prix correct',
  pricePositive: 'Veuillez saisir un prix superieur a zero',
  quantityPositive: 'Veuillez saisir une quantite superieure a zero',
  quantityOrZero: 'Veuillez saisir une quantite (zero autorise)',
  badWeight: 'Veuillez saisir un poids correct',
  badPieces: 'Veuillez saisir un nombre de pieces correct',
} as const

/** "La quantite saisie excede le besoin restant ({max}{unit})", max written the French way. */
export function exceedsMessage(max: number, unit: Unit): string {
  return `La quantite saisie excede le besoin restant (${frenchNumber(max)}${unit})`
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
 * Keyboard input (SPEC §5): digits and one comma; a dot becomes a comma;
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

/** Reads a French decimal ("12,5", ",5", "3,"), null when malformed or empty. */
export function parseFrench(value: string): number | null {
  const v = value.trim()
  if (!DECIMAL.test(v)) return null
  const n = Number(v.replace(',', '.'))
  return Number.isFinite(n) ? n : null
}

/** Rounds to two decimals (kg, prices) or to a whole number (pieces). */
export function roundFor(unit: Unit | 'eur', value: number): number {
  return unit === 'un' ? Math.round(value) : Math.round(value * 100) / 100
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

/** Validates the form: every SPEC §5 rule, one message per field. */
export function validateProposal(values: ProposalValues, ctx: ProposalContext): Errors<ProposalField> {
  const errors: Errors<ProposalField> = {}
  const price = values.price.trim()
  const p = parseFrench(price)
  if (price === '') errors.price = PROPOSAL_MESSAGES.pricePositive
  else if (p === null) errors.price = PROPOSAL_MESSAGES.badPrice
  else if (roundFor('eur', p) <= 0) errors.price = PROPOSAL_MESSAGES.pricePositive

  const quantity = values.quantity.trim()
  const q = parseFrench(quantity)
  const low = ctx.zeroAllowed ? PROPOSAL_MESSAGES.quantityOrZero : PROPOSAL_MESSAGES.quantityPositive
  if (quantity === '') errors.quantity = low
  else if (q === null) errors.quantity = ctx.unit === 'un' ? PROPOSAL_MESSAGES.badPieces : PROPOSAL_MESSAGES.badWeight
  else if (ctx.unit === 'un' && !Number.isInteger(q)) errors.quantity = PROPOSAL_MESSAGES.badPieces
  else if (roundFor(ctx.unit, q) === 0 && !ctx.zeroAllowed) errors.quantity = PROPOSAL_MESSAGES.quantityPositive
  else if (roundFor(ctx.unit, q) > ctx.max) errors.quantity = exceedsMessage(Math.max(0, ctx.max), ctx.unit)
  return errors
}

/** The body of `PUT /api/proposals/…` from valid values, rounded per unit. */
export function offerOf(values: ProposalValues, unit: Unit): { quantity: number; price: number } {
  return {
    quantity: roundFor(unit, parseFrench(values.quantity) ?? 0),
    price: roundFor('eur', parseFrench(values.price) ?? 0),
  }
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
