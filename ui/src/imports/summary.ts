// Pure texts of the import results (PRODUCT §2 "Import result messages").
import { formatMonthYear, formatQuantity } from '../format'
import type { Unit } from '../types'
import { type ImportError, MSG_PAST_MONTH } from '../store/imports'

/** "Import réussi de n besoins" (PRODUCT §2, byte for byte). */
export function successText(count: number): string {
  return `Import réussi de ${count} besoins`
}

/** How many missing product names are listed before "...". */
export const MISSING_LISTED = 3

/** The missing products: the first three names, then "..." when there are more (PRODUCT §2). */
export function missingText(names: readonly string[]): string {
  const listed = names.slice(0, MISSING_LISTED).join(', ')
  return names.length > MISSING_LISTED ? `${listed}, ...` : listed
}

/**
 * The needs an import left as they were, by reason: those under what
 * producers committed or proposed (the only ones whose heading speaks of
 * commitments), and those of past months.
 */
export function splitFailures<T extends ImportError>(failures: readonly T[]): { reserved: T[]; past: T[] } {
  const past = failures.filter((e) => e.message === MSG_PAST_MONTH)
  return { reserved: failures.filter((e) => e.message !== MSG_PAST_MONTH), past }
}

/** The heading of the needs left as they were because producers hold more. */
export function failuresHeading(count: number): string {
  return count === 1
    ? '1 besoin non importé : la quantité demandée est inférieure aux engagements existants'
    : `${count} besoins non importés : la quantité demandée est inférieure aux engagements existants`
}

/** One need left as it was: "Tomate, janvier 2027 (B2) : 50 kg demandés, 100 kg engagés ou proposés". */
export function failureText(e: ImportError, unit: Unit | undefined): string {
  const where = `${e.product}, ${formatMonthYear(e.date)}${e.cell ? ` (${e.cell})` : ''}`
  const q = (v: number) => (unit ? formatQuantity(v, unit) : String(v).replace('.', ','))
  if (e.reserved > e.quantity) return `${where} : ${q(e.quantity)} demandés, ${q(e.reserved)} engagés ou proposés`
  return `${where} : ${e.message}`
}

/** The heading of the cells of past months, which no import changes. */
export function pastHeading(count: number): string {
  return count === 1
    ? '1 besoin non importé : son mois est passé'
    : `${count} besoins non importés : leurs mois sont passés`
}

/** One cell of a past month: "Tomate, janvier 2026 (B2) : 12 kg". */
export function pastText(e: ImportError, unit: Unit | undefined): string {
  const where = `${e.product}, ${formatMonthYear(e.date)}${e.cell ? ` (${e.cell})` : ''}`
  return `${where} : ${unit ? formatQuantity(e.quantity, unit) : String(e.quantity).replace('.', ',')}`
}
