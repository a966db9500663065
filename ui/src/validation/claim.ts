// Claim form rules (PRODUCT §5 "Delivery claim (producer)"), the same as the
// daemon's (core/delivery CheckClaim): per line a signed quantity with at
// most two decimals (whole pieces) and a type, an optional comment; the line
// then bills between nothing and what was ordered (0 ≤ sent + claimed ≤
// the ordered quantity, or the sent one when the shop noted more: a claim
// may always reduce); something to claim, and something changed.
import type { ClaimType, Unit } from '../types'
import { type Errors, MAX_TEXT_LENGTH, TOO_LONG_MESSAGE, charLength } from './common'
import { MAX_MAGNITUDE, decimalText, readDecimal } from './decimal'
import { DELIVERY_MESSAGES } from './delivery'
import { isWholeUnit } from '../units'

export const CLAIM_MESSAGES = {
  noQuantity: 'Aucune quantité saisie',
  notNumber: 'La quantité saisie doit être un nombre',
  noChange: 'Pas de changement à envoyer',
  pieces: DELIVERY_MESSAGES.pieces,
  exceeds: 'La quantité réclamée ne peut excéder la quantité livrée',
  type: 'Veuillez choisir le type de réclamation (Qualité ou Quantité)',
  tooLong: TOO_LONG_MESSAGE,
} as const

/**
 * The refusal of a claim that would bill more than was ordered, the ordered
 * quantity written as the daemon writes it (core/delivery ClaimAboveMessage).
 */
export function claimAboveMessage(orderedHundredths: number, unit: Unit): string {
  return `La quantité livrée plus la quantité réclamée ne peut excéder la quantité commandée (${decimalText(orderedHundredths)}${unit})`
}

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
  /** The quantity ordered for this delivery (quantityExpected). */
  expected: number
  /** The delivered quantity. */
  sent: number
  /** The claim already sent on it (0 and '' when none). */
  claimed: number
  claimType: ClaimType | ''
  claimComment: string
}

const hundredthsOf = (n: number) => Math.round(n * 100)

/**
 * Checks the claimed quantity typed on a line (core/delivery CheckClaim):
 * the claim in hundredths (0 when empty), or the message of the refusal.
 */
export function checkClaim(text: string, line: ClaimLine): { hundredths: number } | { message: string } {
  const v = text.trim()
  if (v === '') return { hundredths: 0 }
  const n = readDecimal(v)
  if (!n) return { message: CLAIM_MESSAGES.notNumber }
  const expected = hundredthsOf(line.expected)
  if (Math.abs(n.value) > MAX_MAGNITUDE) {
    return { message: n.value < 0 ? CLAIM_MESSAGES.exceeds : claimAboveMessage(expected, line.unit) }
  }
  if (n.hundredths === null)
    return { message: isWholeUnit(line.unit) ? CLAIM_MESSAGES.pieces : CLAIM_MESSAGES.notNumber }
  if (isWholeUnit(line.unit) && n.hundredths % 100 !== 0) return { message: CLAIM_MESSAGES.pieces }
  const sent = hundredthsOf(line.sent)
  if (sent + n.hundredths < 0) return { message: CLAIM_MESSAGES.exceeds }
  if (sent + n.hundredths > Math.max(expected, sent)) return { message: claimAboveMessage(expected, line.unit) }
  return { hundredths: n.hundredths }
}

/** Validates the producer's claim. `alreadySent` is true when a claim is pending (modification). */
export function validateClaim(
  values: ClaimValues,
  lines: readonly ClaimLine[],
  alreadySent: boolean,
): Errors<ClaimField> {
  const errors: Errors<ClaimField> = {}
  let claimed = 0
  let changed = false
  for (const line of lines) {
    const v = values[line._id] ?? { quantity: '', type: '', comment: '' }
    const checked = checkClaim(v.quantity, line)
    if ('message' in checked) {
      errors[`quantity:${line._id}`] = checked.message
      continue
    }
    const q = checked.hundredths
    const comment = v.comment.trim()
    if (charLength(comment) > MAX_TEXT_LENGTH) errors[`comment:${line._id}`] = CLAIM_MESSAGES.tooLong
    if (q !== 0) {
      claimed++
      if (v.type !== 'quality' && v.type !== 'quantity') errors[`type:${line._id}`] = CLAIM_MESSAGES.type
    }
    const type = q === 0 ? '' : v.type
    const note = q === 0 ? '' : comment
    if (q !== hundredthsOf(line.claimed) || type !== line.claimType || note !== line.claimComment) changed = true
  }
  if (Object.keys(errors).length > 0) return errors
  if (claimed === 0) errors.form = CLAIM_MESSAGES.noQuantity
  else if (alreadySent && !changed) errors.form = CLAIM_MESSAGES.noChange
  return errors
}

/** The body of the claim call: every line with a quantity (valid values only). */
export function claimPayload(values: ClaimValues, lines: readonly ClaimLine[]) {
  const deliveryLines = []
  for (const line of lines) {
    const v = values[line._id]
    if (!v) continue
    const checked = checkClaim(v.quantity, line)
    if (!('hundredths' in checked) || checked.hundredths === 0) continue
    deliveryLines.push({
      _id: line._id,
      quantityClaimed: checked.hundredths / 100,
      claimType: v.type,
      claimComment: v.comment.trim(),
    })
  }
  return { deliveryLines }
}
