// Payment entry rules (PRODUCT §16 "Payments"), the same as the daemon's
// (core/payments): an amount in euros and cents, a date not in the future,
// one of the four methods, a short reference.
import type { PaymentEntry } from '../payments/types'
import type { Errors } from './common'
import { charLength } from './common'

export const PAYMENT_MESSAGES = {
  amount: 'Le montant doit être positif, en euros et centimes (10 000 000 € au plus).',
  paidOn: 'Date de paiement invalide.',
  future: 'La date de paiement ne peut pas être dans le futur.',
  method: 'Choisissez un moyen de paiement : virement, chèque, espèces ou prélèvement.',
  reference: 'La référence est trop longue (140 caractères au plus).',
} as const

export type PaymentField = 'amount' | 'paidOn' | 'method' | 'reference'

const METHODS = ['virement', 'cheque', 'especes', 'prelevement']
const DAY = /^\d{4}-\d{2}-\d{2}$/

/** Whether a number is euros and cents: positive, two decimals at most. */
export function isCents(n: number): boolean {
  return Number.isFinite(n) && n > 0 && n <= 10_000_000 && Math.abs(Math.round(n * 100) - n * 100) < 1e-6
}

export function validatePayment(p: PaymentEntry, today: string): Errors<PaymentField> {
  const errors: Errors<PaymentField> = {}
  if (!isCents(p.amount)) errors.amount = PAYMENT_MESSAGES.amount
  if (!DAY.test(p.paidOn) || Number.isNaN(Date.parse(`${p.paidOn}T00:00:00Z`))) errors.paidOn = PAYMENT_MESSAGES.paidOn
  else if (p.paidOn > today) errors.paidOn = PAYMENT_MESSAGES.future
  if (!METHODS.includes(p.method)) errors.method = PAYMENT_MESSAGES.method
  if (charLength(p.reference.trim()) > 140) errors.reference = PAYMENT_MESSAGES.reference
  return errors
}
