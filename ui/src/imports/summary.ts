// Pure texts of the import results (PRODUCT §2 "Import result messages").
import { formatMonthYear, formatQuantity } from '../format'
import type { Unit } from '../types'
import type { ImportError } from '../store/imports'

/** "Import reussi de n besoins" (PRODUCT §2, byte for byte). */
export function successText(count: number): string {
  return `Import reussi de ${count} besoins`
}

/** How many missing product names are listed before "...". */
export const MISSING_LISTED = 3

/** The missing products: the first three names, then "..." when there are more (PRODUCT §2). */
export function missingText(names: readonly string[]): string {
  const listed = names.slice(0, MISSING_LISTED).join(', ')
  return names.length > MISSING_LISTED ? `${listed}, ...` : listed
}

/** The heading of the needs left as they were. */
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
