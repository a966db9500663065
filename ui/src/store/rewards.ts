// Ambassador programme actions (PRODUCT §2 "Rewards panel", §9): the shop's
// standing and the contribution pledge (every shop's score is on the map,
// store/shopmap.ts).
import { ApiError, api, errorMessage } from '../api'
import { progress } from '../notify'
import type { RewardsStanding } from '../types'
import { claimDashboard, dashboard } from './dashboard'

export const REWARDS_MESSAGES = {
  progress: 'Modification en cours',
  done: 'Modification effectuée',
  failed: 'Échec de la modification',
  /** No payment is taken yet: say so. */
  pledged:
    'Engagement enregistré : le prélèvement sera mis en place prochainement, aucun paiement ne vous est demandé pour le moment.',
  ended: 'Votre contribution mensuelle est arrêtée.',
} as const

/** Whether an answer has the standing's shape (a wrong answer must not break the dashboard). */
function isStanding(x: unknown): x is RewardsStanding {
  const s = x as RewardsStanding | null
  return (
    !!s &&
    typeof s.level === 'string' &&
    typeof s.score === 'number' &&
    typeof s.rank === 'number' &&
    typeof s.purchases?.monthly === 'number' &&
    typeof s.purchases.lastMonth?.value === 'number' &&
    typeof s.purchases.currentMonth?.value === 'number'
  )
}

/** Loads the shop's standing (`GET /api/rewards`). Shops only; failures leave it null and marked error. */
export async function loadRewards(): Promise<boolean> {
  claimDashboard()
  dashboard.loading.rewards = 'busy'
  try {
    const standing = await api.get<unknown>('/api/rewards')
    if (!isStanding(standing)) throw new Error('réponse inattendue de /api/rewards')
    dashboard.rewards = standing
    dashboard.loading.rewards = 'idle'
    return true
  } catch (err) {
    console.error('rewards:', err)
    dashboard.loading.rewards = 'error'
    return false
  }
}

/** Outcome of a pledge: saved, or the server's field message to show under the input. */
export type PledgeOutcome = { ok: true } | { ok: false; fieldError?: string }

/** Pledges or changes the monthly contribution (`PUT /api/rewards/contribution`), amount in EUR. */
export async function pledgeContribution(amount: number): Promise<PledgeOutcome> {
  const toast = progress(REWARDS_MESSAGES.progress)
  try {
    dashboard.rewards = await api.put<RewardsStanding>('/api/rewards/contribution', { amount })
    toast.success(REWARDS_MESSAGES.done, REWARDS_MESSAGES.pledged)
    return { ok: true }
  } catch (err) {
    toast.failure(REWARDS_MESSAGES.failed, errorMessage(err))
    const fieldError = err instanceof ApiError ? err.fieldErrors().amount : undefined
    return { ok: false, fieldError }
  }
}

/** Withdraws the contribution (`DELETE /api/rewards/contribution`). */
export async function endContribution(): Promise<boolean> {
  const toast = progress(REWARDS_MESSAGES.progress)
  try {
    dashboard.rewards = await api.del<RewardsStanding>('/api/rewards/contribution')
    toast.success(REWARDS_MESSAGES.done, REWARDS_MESSAGES.ended)
    return true
  } catch (err) {
    toast.failure(REWARDS_MESSAGES.failed, errorMessage(err))
    return false
  }
}
