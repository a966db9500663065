// The dashboard's own slice of state, apart from the user-load mirror of
// state.ts so the landing page's bundle does not carry it: the shop's
// ambassador standing and where paging back through the activity feed ran
// dry (the map's shops and scores are store/shopmap.ts's). Readers get nothing from another
// session: each value remembers the user it was loaded for.
import { proxy, useSnapshot } from 'valtio'
import type { RewardsStanding } from '../types'
import type { LoadStatus } from './state'
import { state } from './state'

export interface DashboardState {
  /** Id of the user the values below were loaded for. */
  owner: string | null
  /** `GET /api/rewards`; null until loaded (shops only). */
  rewards: RewardsStanding | null
  loading: { rewards: LoadStatus }
  /** Id of the oldest event when paging back found nothing older. */
  eventsExhaustedAt: string | null
}

export const dashboard = proxy<DashboardState>({
  owner: null,
  rewards: null,
  loading: { rewards: 'idle' },
  eventsExhaustedAt: null,
})

/** Empties the slice, giving it to `owner` (tests, and a change of user). */
export function resetDashboard(owner: string | null = null): void {
  Object.assign(dashboard, {
    owner,
    rewards: null,
    loading: { rewards: 'idle' },
    eventsExhaustedAt: null,
  })
}

/** Makes the slice belong to the session's user, forgetting another user's values. */
export function claimDashboard(): void {
  const id = state.user?._id ?? null
  if (dashboard.owner !== id) resetDashboard(id)
}

function useOwned() {
  const d = useSnapshot(dashboard)
  const userId = useSnapshot(state).user?._id ?? null
  return d.owner !== null && d.owner === userId ? d : null
}

export const useRewards = () => useOwned()?.rewards ?? null
export const useRewardsLoading = () => useOwned()?.loading.rewards ?? 'idle'
export const useEventsExhaustedAt = () => useSnapshot(dashboard).eventsExhaustedAt
