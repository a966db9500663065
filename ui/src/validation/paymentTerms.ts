// Payment terms rules (PRODUCT §16 "Payment terms"), the same as the
// daemon's (core/terms): within the legal maximum for perishable food,
// 30 days after the end of the décade of delivery, and never due before the
// monthly invoice, issued on the last day of the month of its deliveries.
import type { PaymentTerms } from '../types'
import type { Errors } from './common'

export const LEGAL_DAYS = 30
export const MAX_MONTH_DAYS = 9
/** The shortest term after the décade: a delivery of the 1st–10th is then due on the 31st at the earliest. */
export const MIN_DECADE_DAYS = 21
export const MAX_DISCOUNT = 1000
export const MAX_DISCOUNT_DAYS = 30

export const TERMS_MESSAGES = {
  basis: 'Choisissez la base du délai de paiement : fin de décade ou fin de mois.',
  days: 'Le délai de paiement va de 21 à 30 jours après la fin de la décade, ou de 0 à 9 jours après la fin du mois : la facture du mois est émise le dernier jour du mois, et 30 jours après la fin de la décade est le maximum légal pour les denrées périssables.',
  discount:
    "L'escompte pour paiement anticipé va de 0 à 10 %, pour un paiement dans les 1 à 30 jours suivant l'émission de la facture (et au plus tard à son échéance).",
} as const

/** The legal maximum, no discount: the terms of a producer who set none. */
export const DEFAULT_TERMS: PaymentTerms = { basis: 'decade', days: LEGAL_DAYS, discount: 0, discountDays: 0 }

const whole = (n: number, min: number, max: number) => Number.isInteger(n) && n >= min && n <= max

export function validateTerms(t: PaymentTerms): Errors<keyof typeof TERMS_MESSAGES> {
  const errors: Errors<keyof typeof TERMS_MESSAGES> = {}
  if (t.basis !== 'decade' && t.basis !== 'month') errors.basis = TERMS_MESSAGES.basis
  else if (
    !whole(t.days, t.basis === 'decade' ? MIN_DECADE_DAYS : 0, t.basis === 'decade' ? LEGAL_DAYS : MAX_MONTH_DAYS)
  )
    errors.days = TERMS_MESSAGES.days
  if (
    !whole(t.discount, 0, MAX_DISCOUNT) ||
    !whole(t.discountDays, 0, MAX_DISCOUNT_DAYS) ||
    (t.discount > 0 && t.discountDays === 0)
  )
    errors.discount = TERMS_MESSAGES.discount
  return errors
}
