// Need cell input (PRODUCT §4 "Need cell editing", §5 "Need cell"), pure:
//
// - Keyboard filter: digits, plus one decimal separator for kg (comma or
//   dot, shown as a comma). A minus sign is kept only in first position, so
//   that a negative value gets its PRODUCT message instead of silently losing
//   its sign; anything else is dropped.
// - Parsing: empty means zero; kg take at most 2 decimals, pieces none
//   (the decimal rule of ../validation/decimal: more is refused, never
//   rounded); the daemon's bound (a million) applies, checked first as the
//   daemon does.
// - The decide rule: empty, 0 or '0' deletes the need; a value on an existing
//   need updates it; a value over 0 on an empty cell creates one; the same
//   value changes nothing. A need may not go under its accepted + proposed
//   quantities (nor be deleted while it has any), and a past month is
//   read-only. Every refusal carries the message shown to the user.
import type { Unit } from '../types'
import { readDecimal } from '../validation/decimal'
import type { NeedRO } from './model'
import { isPastMonth, type Month } from './period'
import { isWholeUnit } from '../units'

/** Messages of PRODUCT §5 and the daemon's (core/planning/rules.go), byte for byte. */
export const CELL_MESSAGES = {
  negative: 'La valeur saisie doit être supérieure à zéro.',
  belowReserved:
    'La valeur saisie ne peut être inférieure à la somme des engagements et des propositions non traitées.',
  badWeight: 'Veuillez saisir un poids correct',
  badPieces: 'Veuillez saisir un nombre de pièces correct',
  tooLarge: 'La valeur saisie est trop grande.',
  pastMonth: 'Ce mois est passé : ses besoins ne peuvent plus être modifiés.',
} as const

/** The largest monthly need the daemon accepts (core/planning.MaxQuantity). */
export const MAX_QUANTITY = 1_000_000

/** Filters typed or pasted text for a cell of this unit (see the header). */
export function filterCellInput(raw: string, unit: Unit): string {
  let out = ''
  let separator = false
  for (const ch of raw) {
    if (ch >= '0' && ch <= '9') out += ch
    else if (ch === '-' && out === '') out = '-'
    else if ((ch === ',' || ch === '.') && !isWholeUnit(unit) && !separator) {
      separator = true
      out += ','
    }
  }
  return out
}

/** A quantity as a cell shows it: 12.5 → "12,5" (no grouping, comma decimal). */
export function formatCellValue(quantity: number, unit: Unit): string {
  const rounded = isWholeUnit(unit) ? Math.round(quantity) : Math.round(quantity * 100) / 100
  return String(rounded).replace('.', ',')
}

export type ParsedCell = { ok: true; value: number } | { ok: false; message: string }

/** Reads a cell's text: empty is 0; see the header for the rules. */
export function parseCellInput(text: string, unit: Unit): ParsedCell {
  const s = text.trim()
  if (s === '') return { ok: true, value: 0 }
  if (s.startsWith('-')) return { ok: false, message: CELL_MESSAGES.negative }
  const whole = isWholeUnit(unit)
  const bad = { ok: false, message: whole ? CELL_MESSAGES.badPieces : CELL_MESSAGES.badWeight } as const
  const n = (whole ? /^\d+$/ : /^\d*(?:[.,]\d*)?$/).test(s) ? readDecimal(s) : null
  if (!n) return bad
  if (n.value > MAX_QUANTITY) return { ok: false, message: CELL_MESSAGES.tooLarge }
  if (n.hundredths === null) return bad
  return { ok: true, value: n.hundredths / 100 }
}

/** What committing a cell does. */
export type CellDecision =
  | { kind: 'none' }
  | { kind: 'create'; quantity: number }
  | { kind: 'update'; need: NeedRO; quantity: number }
  | { kind: 'delete'; need: NeedRO }
  | { kind: 'invalid'; message: string }

/** What a need holds for producers: it may not go under this. */
export function reservedOf(need: NeedRO): number {
  return need.quantityAccepted + need.quantityProposed
}

/** Whether a need has commitments or pending proposals (the daemon then refuses its deletion). */
function isHeld(need: NeedRO): boolean {
  return reservedOf(need) > 0 || need.proposals.some((p) => p.status === 'accepted' || p.status === 'proposed')
}

/**
 * The decide rule for committing `text` into the cell of `month` holding
 * `need` (undefined for an empty cell), in the current month `current`.
 */
export function decideCellWrite(
  need: NeedRO | undefined,
  text: string,
  unit: Unit,
  month: Month,
  current: Month,
): CellDecision {
  const parsed = parseCellInput(text, unit)
  if (!parsed.ok) return { kind: 'invalid', message: parsed.message }
  const quantity = parsed.value
  if (!need && quantity === 0) return { kind: 'none' }
  if (need && quantity !== 0 && quantity === need.quantity) return { kind: 'none' }
  if (isPastMonth(month, current)) return { kind: 'invalid', message: CELL_MESSAGES.pastMonth }
  if (!need) return { kind: 'create', quantity }
  if (quantity === 0) {
    return isHeld(need) ? { kind: 'invalid', message: CELL_MESSAGES.belowReserved } : { kind: 'delete', need }
  }
  if (quantity < reservedOf(need)) return { kind: 'invalid', message: CELL_MESSAGES.belowReserved }
  return { kind: 'update', need, quantity }
}
