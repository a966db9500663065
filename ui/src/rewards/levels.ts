// Ambassador levels (PRODUCT §9) and the progress toward the next one. The
// daemon decides a shop's level (core/rewards); these pure functions mirror
// its thresholds to explain it and to draw the progress bar. Amounts in EUR.

export type LevelKey = 'sympathisant' | 'militant' | 'ambassadeur' | 'super-ambassadeur'

export interface Level {
  key: LevelKey
  name: string
  /** Monthly purchases needed, EUR (reached at the exact value). */
  purchases: number
  /** Monthly contribution needed, EUR; 0 for none. */
  contribution: number
  /** The conditions as the levels table words them. */
  purchasesText: string
  contributionText: string
}

/** Smallest pledge (PRODUCT §9: it covers bank fees), largest accepted. */
export const MIN_CONTRIBUTION = 10
export const MAX_CONTRIBUTION = 10000

/** The four levels, lowest first (PRODUCT §9). */
export const LEVELS: readonly Level[] = [
  {
    key: 'sympathisant',
    name: 'Sympathisant',
    purchases: 0,
    contribution: 0,
    purchasesText: 'moins de 500 € par mois',
    contributionText: 'aucune',
  },
  {
    key: 'militant',
    name: 'Militant',
    purchases: 500,
    contribution: 0,
    purchasesText: 'plus de 500 € par mois',
    contributionText: 'aucune',
  },
  {
    key: 'ambassadeur',
    name: 'Ambassadeur certifié',
    purchases: 1000,
    contribution: MIN_CONTRIBUTION,
    purchasesText: 'plus de 1 000 € par mois',
    contributionText: 'moins de 100 € par mois (10 € minimum)',
  },
  {
    key: 'super-ambassadeur',
    name: 'Super Ambassadeur certifié',
    purchases: 2000,
    contribution: 100,
    purchasesText: 'plus de 2 000 € par mois',
    contributionText: '100 € par mois ou plus',
  },
]

const cents = (eur: number) => (Number.isFinite(eur) && eur > 0 ? Math.round(eur * 100) : 0)

const meets = (level: Level, purchases: number, contribution: number) =>
  cents(purchases) >= cents(level.purchases) && cents(contribution) >= cents(level.contribution)

/** The level with these monthly purchases and contribution: the highest whose conditions are all met. */
export function levelOf(purchases: number, contribution: number): Level {
  for (let i = LEVELS.length - 1; i > 0; i--) if (meets(LEVELS[i], purchases, contribution)) return LEVELS[i]
  return LEVELS[0]
}

/** The level named `key`, or Sympathisant for an unknown key. */
export function levelByKey(key: string | null | undefined): Level {
  return LEVELS.find((l) => l.key === key) ?? LEVELS[0]
}

export interface Progress {
  level: Level
  /** null at the top level. */
  next: Level | null
  /** 0–100, whole: 100 only at the top level. */
  percent: number
  /** EUR of monthly purchases still missing for the next level. */
  missingPurchases: number
  /** EUR per month of contribution still missing for the next level. */
  missingContribution: number
}

/**
 * Progress from the current level toward the next. Each condition of the
 * next level counts for an equal share: purchases as the fraction of the
 * threshold reached, the contribution (when the next level asks for one) as
 * the fraction of the pledge it needs. A Militant buying 1 500 € a month
 * without a pledge is half-way to Ambassadeur certifié.
 */
export function progressToNext(purchases: number, contribution: number): Progress {
  const level = levelOf(purchases, contribution)
  const index = LEVELS.indexOf(level)
  const next = LEVELS[index + 1] ?? null
  if (!next) return { level, next, percent: 100, missingPurchases: 0, missingContribution: 0 }
  const parts = [Math.min(1, cents(purchases) / cents(next.purchases))]
  if (next.contribution > 0) parts.push(Math.min(1, cents(contribution) / cents(next.contribution)))
  const mean = parts.reduce((a, b) => a + b, 0) / parts.length
  return {
    level,
    next,
    // Floor, and never 100 below the next level (a part can only be 1 when met).
    percent: Math.min(99, Math.floor(mean * 100)),
    missingPurchases: Math.max(0, cents(next.purchases) - cents(purchases)) / 100,
    missingContribution: Math.max(0, cents(next.contribution) - cents(contribution)) / 100,
  }
}
