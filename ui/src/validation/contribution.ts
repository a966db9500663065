// The ambassador contribution form (PRODUCT §9: pay-what-you-want, 10 € a
// month at least). Same rules, messages and order as core/rewards
// ParseAmount; the amount follows the decimal rule of ./decimal (at most two
// decimals, refused, never rounded).
import { MAX_CONTRIBUTION, MIN_CONTRIBUTION } from '../rewards/levels'
import type { Errors } from './common'
import { type TypedNumber, readDecimal } from './decimal'

export interface ContributionValues {
  /** As typed: "25", "25,50", "25.5", "1 000". */
  amount: string
}

export type ContributionField = keyof ContributionValues

export const CONTRIBUTION_MESSAGES = {
  required: 'Veuillez saisir le montant de votre contribution mensuelle.',
  format: 'Veuillez saisir un montant en euros, avec deux décimales au plus.',
  min: 'La contribution minimale est de 10 € par mois, pour couvrir les frais bancaires.',
  max: 'La contribution ne peut pas dépasser 10 000 € par mois.',
} as const

/** The typed amount ("1 000,50 €": spaces and a final € dropped), null when malformed. */
function readAmount(text: string): TypedNumber | null {
  return readDecimal(text.replace(/[\s\u00a0\u202f]/g, '').replace(/€$/, ''))
}

/** The typed amount in EUR, or null when it is not a number with at most 2 decimals. */
export function parseAmount(text: string): number | null {
  const n = readAmount(text)
  return n && n.hundredths !== null ? n.hundredths / 100 : null
}

export function validateContribution(values: ContributionValues): Errors<ContributionField> {
  const text = values.amount.trim()
  if (text === '') return { amount: CONTRIBUTION_MESSAGES.required }
  const amount = readAmount(text)
  if (!amount) return { amount: CONTRIBUTION_MESSAGES.format }
  if (amount.value > MAX_CONTRIBUTION) return { amount: CONTRIBUTION_MESSAGES.max }
  if (amount.hundredths === null) return { amount: CONTRIBUTION_MESSAGES.format }
  if (amount.hundredths < MIN_CONTRIBUTION * 100) return { amount: CONTRIBUTION_MESSAGES.min }
  return {}
}
