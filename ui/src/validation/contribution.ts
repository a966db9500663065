// The ambassador contribution form (SPEC §9: pay-what-you-want, 10 € a
// month at least). Same rules and messages as core/rewards ParseAmount.
import { MAX_CONTRIBUTION, MIN_CONTRIBUTION } from '../rewards/levels'
import type { Errors } from './common'

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

/** The typed amount in EUR, or null when it is not a number with at most 2 decimals. */
export function parseAmount(text: string): number | null {
  const t = text.replace(/[\s\u00a0\u202f]/g, '').replace(/€$/, '').replace(',', '.')
  if (!/^\d+(\.\d{1,2})?$/.test(t)) return null
  const n = Number(t)
  return Number.isFinite(n) ? n : null
}

export function validateContribution(values: ContributionValues): Errors<ContributionField> {
  const text = values.amount.trim()
  if (text === '') return { amount: CONTRIBUTION_MESSAGES.required }
  if (/^-/.test(text)) return { amount: CONTRIBUTION_MESSAGES.min }
  const amount = parseAmount(text)
  if (amount === null) return { amount: CONTRIBUTION_MESSAGES.format }
  if (amount > MAX_CONTRIBUTION) return { amount: CONTRIBUTION_MESSAGES.max }
  if (amount < MIN_CONTRIBUTION) return { amount: CONTRIBUTION_MESSAGES.min }
  return {}
}
