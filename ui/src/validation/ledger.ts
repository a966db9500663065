// The accounts of a user's FEC (PRODUCT §16 "Export for the platform and the
// accountant"), the same rule and messages as the daemon's
// (core/accounting.Check): digits only, 3 to 10 of them, starting with the
// account's class; empty is the default.
import type { UserType } from '../types'
import type { Errors } from './common'

export type LedgerField =
  | 'customers'
  | 'sales'
  | 'vatCollected'
  | 'discountsGiven'
  | 'suppliers'
  | 'purchases'
  | 'vatDeductible'
  | 'discountsReceived'
  | 'bank'
  | 'cash'

export type LedgerAccounts = Record<LedgerField, string>

/** Each account: the prefix its number starts with, its name in a sentence, its form label. */
export const LEDGER_PURPOSES: Record<LedgerField, { prefix: string; name: string; label: string }> = {
  customers: { prefix: '411', name: 'le compte clients', label: 'Clients' },
  sales: { prefix: '70', name: 'le compte de ventes', label: 'Ventes' },
  vatCollected: { prefix: '4457', name: 'le compte de TVA collectée', label: 'TVA collectée' },
  discountsGiven: { prefix: '665', name: "le compte d'escomptes accordés", label: 'Escomptes accordés' },
  suppliers: { prefix: '401', name: 'le compte fournisseurs', label: 'Fournisseurs' },
  purchases: { prefix: '60', name: "le compte d'achats", label: 'Achats' },
  vatDeductible: { prefix: '4456', name: 'le compte de TVA déductible', label: 'TVA déductible' },
  discountsReceived: { prefix: '765', name: "le compte d'escomptes obtenus", label: 'Escomptes obtenus' },
  bank: { prefix: '51', name: 'le compte de banque', label: 'Banque' },
  cash: { prefix: '53', name: 'le compte de caisse', label: 'Caisse' },
}

/** The accounts each role's FEC posts to, in the form's order. */
export const LEDGER_FIELDS: Record<UserType, readonly LedgerField[]> = {
  producer: ['customers', 'sales', 'vatCollected', 'discountsGiven', 'bank', 'cash'],
  distributor: ['suppliers', 'purchases', 'vatDeductible', 'discountsReceived', 'bank', 'cash'],
}

export const MIN_DIGITS = 3
export const MAX_DIGITS = 10

/** "Le compte clients doit être un numéro de 3 à 10 chiffres commençant par 411." */
export function ledgerMessage(field: LedgerField): string {
  const { name, prefix } = LEDGER_PURPOSES[field]
  return `${name[0].toUpperCase()}${name.slice(1)} doit être un numéro de ${MIN_DIGITS} à ${MAX_DIGITS} chiffres commençant par ${prefix}.`
}

/** Whether a number (spaces around it ignored) is an account of the field; empty is the default. */
export function validAccount(field: LedgerField, value: string): boolean {
  const n = value.trim()
  if (n === '') return true
  return new RegExp(`^[0-9]{${MIN_DIGITS},${MAX_DIGITS}}$`).test(n) && n.startsWith(LEDGER_PURPOSES[field].prefix)
}

export function validateLedger(values: Partial<LedgerAccounts>): Errors<LedgerField> {
  const errors: Errors<LedgerField> = {}
  for (const field of Object.keys(LEDGER_PURPOSES) as LedgerField[]) {
    if (!validAccount(field, values[field] ?? '')) errors[field] = ledgerMessage(field)
  }
  return errors
}
