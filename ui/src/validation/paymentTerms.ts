// Payment terms rules (PRODUCT §16 "Payment terms"), the same as the
// daemon's (core/terms): within the legal maximum for perishable food,
// 30 days after the end of the décade of delivery.
import type { PaymentTerms } from '../types'
import type { Errors } from './common'

export const LEGAL_DAYS = 30
export const MAX_MONTH_DAYS = 9
export const MAX_DISCOUNT = 1000
export const MAX_DISCOUNT_DAYS = 30

export const TERMS_MESSAGES = {
  basis: 'Choisissez la base du délai de paiement : fin de décade ou fin de mois.',
  days: "Le délai de paiement va de 0 à 30 jours après la fin de la décade, ou de 0 à 9 jours après la fin du mois : c'est le maximum légal pour les denrées périssables.",
  discount:
    "L'escompte pour paiement anticipé va de 0 à 10 %, payé dans les 0 à 30 jours suivant l'émission de la facture.",
} as const

/** The legal maximum, no discount: the terms of a producer who set none. */
export const DEFAULT_TERMS: PaymentTerms = { basis: 'decade', days: LEGAL_DAYS, discount: 0, discountDays: 0 }

const whole = (n: number, min: number, max: number) => Number.isInteger(n) && n >= min && n <= max

export function validateTerms(t: PaymentTerms): Errors<keyof typeof TERMS_MESSAGES> {
  const errors: Errors<keyof typeof TERMS_MESSAGES> = {}
  if (t.basis !== 'decade' && t.basis !== 'month') errors.basis = TERMS_MESSAGES.basis
  else if (!whole(t.days, 0, t.basis === 'decade' ? LEGAL_DAYS : MAX_MONTH_DAYS)) errors.days = TERMS_MESSAGES.days
  if (
    !whole(t.discount, 0, MAX_DISCOUNT) ||
    !whole(t.discountDays, 0, MAX_DISCOUNT_DAYS) ||
    (t.discount > 0 && t.discountDays === 0)
  )
    errors.discount = TERMS_MESSAGES.discount
  return errors
}
