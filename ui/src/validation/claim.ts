// Claim form rules (SPEC §5 "Delivery claim (producer)"), the same as the
// daemon's (core/delivery): per line a signed quantity and a type, an
// optional comment; something to claim, and something changed.
import type { ClaimType, Unit } from '../types'
import { type Errors, MAX_TEXT_LENGTH, TOO_LONG_MESSAGE, charLength } from './common'
import { DELIVERY_MESSAGES, parseQuantity } from './delivery'

export const CLAIM_MESSAGES = {
  noQuantity: 'Aucune quantite saisie',
  notNumber: 'La quantite saisie doit etre un nombre',
  noChange: 'Pas de changement a envoyer',
  pieces: DELIVERY_MESSAGES.pieces,
  exceeds: 'La quantite reclamee ne peut exceder la quantite livree',
  type: 'Veuillez choisir le type de reclamation (Qualite ou Quantite)',
  tooLong: TOO_LONG_MESSAGE,
} as const

/** The claim on one line, as typed. */
export interface ClaimLineValues {
  quantity: string
  type: ClaimType | ''
  comment: string
}

export type ClaimValues = Record<string, ClaimLineValues>

/** Field names: "quantity:<id>", "type:<id>", "comment:<id>", and "form" for the whole claim. */
export type ClaimField = 'form' | `quantity:${string}` | `type:${string}` | `comment:${string}`

/** A line as the claim form knows it. */
export interface ClaimLine {
  _id: string
  unit: Unit
  /** The delivered quantity. */
  sent: number
  /** The claim already sent on it (0 and '' when none). */
  claimed: number
  claimType: ClaimType | ''
  claimComment: string
}

/** The signed quantity of a typed value with its unit's precision, or NaN. */
function claimedQuantity(value: string, unit: Unit): number {
  const v = value.trim()
  if (v === '') return 0
  const q = parseQuantity(v)
  if (Number.isNaN(q)) return NaN
  return unit === 'un' ? q : Math.round(q * 100) / 100
}

/** Validates the producer's claim. `alreadySent` is true when a claim is pending (modification). */
export function validateClaim(values: ClaimValues, lines: readonly ClaimLine[], alreadySent: boolean): Errors<ClaimField> {
  const errors: Errors<ClaimField> = {}
  let claimed = 0
  let changed = false
  for (const line of lines) {
    const v = values[line._id] ?? { quantity: '', type: '', comment: '' }
    const raw = v.quantity.trim()
    const q = claimedQuantity(raw, line.unit)
    if (Number.isNaN(q) || (line.unit === 'kg' && /[.,]\d{3,}$/.test(raw))) {
      errors[`quantity:${line._id}`] = CLAIM_MESSAGES.notNumber
      continue
    }
    if (line.unit === 'un' && !Number.isInteger(q)) {
      errors[`quantity:${line._id}`] = CLAIM_MESSAGES.pieces
      continue
    }
    if (line.sent + q < -1e-9) {
      errors[`quantity:${line._id}`] = CLAIM_MESSAGES.exceeds
      continue
    }
    const comment = v.comment.trim()
    if (charLength(comment) > MAX_TEXT_LENGTH) errors[`comment:${line._id}`] = CLAIM_MESSAGES.tooLong
    if (q !== 0) {
      claimed++
      if (v.type !== 'quality' && v.type !== 'quantity') errors[`type:${line._id}`] = CLAIM_MESSAGES.type
    }
    const type = q === 0 ? '' : v.type
    const note = q === 0 ? '' : comment
    if (q !== line.claimed || type !== line.claimType || note !== line.claimComment) changed = true
  }
  if (Object.keys(errors).length > 0) return errors
  if (claimed === 0) errors.form = CLAIM_MESSAGES.noQuantity
  else if (alreadySent && !changed) errors.form = CLAIM_MESSAGES.noChange
  return errors
}

/** The body of the claim call: every line with a quantity. */
export function claimPayload(values: ClaimValues, lines: readonly ClaimLine[]) {
  const deliveryLines = []
  for (const line of lines) {
    const v = values[line._id]
    if (!v) continue
    const q = claimedQuantity(v.quantity, line.unit)
    if (!q) continue
    deliveryLines.push({ _id: line._id, quantityClaimed: q, claimType: v.type, claimComment: v.comment.trim() })
  }
  return { deliveryLines }
}
