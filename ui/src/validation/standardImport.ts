// Standard import form (PRODUCT §5 "Standard import form", §9 defaults): the
// period, the turnover (fruit-and-vegetable turnover when known, otherwise
// the store's turnover and the fruit-and-vegetable share) and the
// correction factor. The daemon receives the corrected annual turnover and
// the list of months (PRODUCT §14); it checks them again (core/planning
// CheckStandard).
import { addMonths, type Month } from '../planner/period'
import type { Errors } from './common'

export type { Month }

export interface StandardImportValues {
  /** First month, "2026-12-01"; null when cleared. */
  start: Month | null
  /** Last month, included; null when cleared. */
  end: Month | null
  /** Whether the shop knows its fruit-and-vegetable turnover. */
  vegetableKnown: boolean
  /** Annual fruit-and-vegetable turnover in euros, as typed. */
  vegetableTurnover: string
  /** Annual store turnover in euros, as typed. */
  storeTurnover: string
  /** Fruit-and-vegetable share of the store turnover, in percent, as typed. */
  share: string
  /** Correction factor in percent, as typed. */
  correction: string
}

export type StandardImportField = 'start' | 'end' | 'vegetableTurnover' | 'storeTurnover' | 'share' | 'correction'

export const STANDARD_IMPORT_MESSAGES = {
  startRequired: 'La date de début est requise',
  endRequired: 'La date de fin est requise',
  endBeforeStart: 'La date de fin doit être postérieure à la date de début',
  vegetableRequired: "Le CA fruits et légumes annuel est requis. Si vous n'en disposez pas, désactivez-le ci-dessus",
  storeRequired: 'Le CA annuel magasin est requis',
  positive: 'La valeur saisie doit être supérieure à zéro.',
  share: 'La valeur saisie doit être comprise entre 10% et 100%',
  correction: 'La valeur saisie doit être comprise entre 10% et 200%',
  // Rules the daemon enforces that PRODUCT leaves unworded (same texts as core/planning).
  pastMonth: 'Ce mois est passé : ses besoins ne peuvent plus être modifiés.',
  tooManyMonths: 'Indiquez de 1 à 36 mois, chacun une seule fois.',
} as const

/** PRODUCT §9 defaults. */
export const DEFAULT_SHARE = '20'
export const DEFAULT_CORRECTION = '90'
/** The daemon takes at most this many months in one standard import. */
export const MAX_STANDARD_MONTHS = 36
/** How many months the simulation previews (PRODUCT §7). */
export const PREVIEW_MONTHS = 3

export { addMonths }

/** The months from `start` to `end`, both included (empty when end is before start). */
export function monthsBetween(start: Month, end: Month): Month[] {
  const months: Month[] = []
  for (let m = start; m <= end && months.length <= MAX_STANDARD_MONTHS; m = addMonths(m, 1)) months.push(m)
  return months
}

/** PRODUCT §9 defaults: start next month, end in 12 months, share 20 %, correction 90 %. */
export function defaultStandardImport(current: Month): StandardImportValues {
  return {
    start: addMonths(current, 1),
    end: addMonths(current, 12),
    vegetableKnown: true,
    vegetableTurnover: '',
    storeTurnover: '',
    share: DEFAULT_SHARE,
    correction: DEFAULT_CORRECTION,
  }
}

/**
 * Reads an amount or a percentage as typed: digits with spaces between
 * thousands and one decimal separator (comma or dot). NaN when it is
 * anything else.
 */
export function parseAmount(value: string): number {
  const s = value.replace(/[\s\u00a0\u202f]/g, '').replace(',', '.')
  if (!/^(\d+(\.\d*)?|\.\d+)$/.test(s)) return Number.NaN
  return Number(s)
}

function checkTurnover(value: string, required: string): string | undefined {
  if (value.trim() === '') return required
  const n = parseAmount(value)
  if (!Number.isFinite(n) || n <= 0) return STANDARD_IMPORT_MESSAGES.positive
  return undefined
}

function checkPercent(value: string, low: number, high: number, message: string): string | undefined {
  const n = parseAmount(value)
  return Number.isFinite(n) && n >= low && n <= high ? undefined : message
}

/**
 * Validates the standard import form against the current month; returns one
 * message per invalid field. The share is checked only when it is used
 * (the fruit-and-vegetable turnover is unknown).
 */
export function validateStandardImport(values: StandardImportValues, current: Month): Errors<StandardImportField> {
  const m = STANDARD_IMPORT_MESSAGES
  const errors: Errors<StandardImportField> = {}
  if (!values.start) errors.start = m.startRequired
  else if (values.start < current) errors.start = m.pastMonth
  if (!values.end) errors.end = m.endRequired
  else if (values.start && values.end < values.start) errors.end = m.endBeforeStart
  else if (values.start && monthsBetween(values.start, values.end).length > MAX_STANDARD_MONTHS)
    errors.end = m.tooManyMonths
  if (values.vegetableKnown) {
    const e = checkTurnover(values.vegetableTurnover, m.vegetableRequired)
    if (e) errors.vegetableTurnover = e
  } else {
    const e = checkTurnover(values.storeTurnover, m.storeRequired)
    if (e) errors.storeTurnover = e
    const s = checkPercent(values.share, 10, 100, m.share)
    if (s) errors.share = s
  }
  const c = checkPercent(values.correction, 10, 200, m.correction)
  if (c) errors.correction = c
  return errors
}

/**
 * The corrected annual turnover the daemon receives (PRODUCT §9): vegetable
 * turnover × correction, or store turnover × share × correction, in euros
 * rounded to the cent. NaN while the values are invalid.
 */
export function correctedTurnover(values: StandardImportValues): number {
  const correction = parseAmount(values.correction) / 100
  const base = values.vegetableKnown
    ? parseAmount(values.vegetableTurnover)
    : (parseAmount(values.storeTurnover) * parseAmount(values.share)) / 100
  return Math.round(base * correction * 100) / 100
}
