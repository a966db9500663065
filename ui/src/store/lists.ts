// Each screen reads what it shows (issue 42): the user load (`GET
// /api/user`) carries what every screen needs — the user, the names its
// screens show, the counters — and the catalogue comes beside it (`GET
// /api/catalogue`, kept by the browser). The lists come when a screen that
// shows them opens: the needs of 12 months back on for the planners (older
// months as the planner moves there, `loadOwnNeedsFrom`), the orders of 12
// months back on for the deliveries and the reception, the feed's first
// page for the activities, the chart's aggregates for the dashboard. Each
// is read once per session, then revalidated when the user load is
// (`refreshLists`): an unchanged answer is a 304 (src/api.ts).
import { proxy, useSnapshot } from 'valtio'
import { api, errorMessage } from '../api'
import { notifyError } from '../notify'
import { addMonths, currentMonth } from '../planner/period'
import type { ActivityEvent, Need, Order, Purchases } from '../types'
import { type ScreenList, heldAll, state } from './state'

/** How far back a screen's list starts (the planners' and the deliveries' months). */
export const LIST_MONTHS_BACK = 12

/** The failures' toasts (PRODUCT §8). */
export const LIST_MESSAGES: Record<ScreenList | 'purchases', string> = {
  needs: 'Échec du chargement des besoins',
  orders: 'Échec du chargement des livraisons',
  events: 'Échec du chargement des activités',
  purchases: 'Échec du chargement des statistiques',
}

/** The address of each list, from 12 months back where it has months. */
export function listPath(list: ScreenList, today: Date = new Date()): string {
  const from = addMonths(currentMonth(today), -LIST_MONTHS_BACK)
  switch (list) {
    case 'needs':
      return `/api/needs?from=${from}`
    case 'orders':
      return `/api/orders?from=${from}`
    case 'events':
      return '/api/events'
  }
}

// The reads under way, per list: a second screen asking waits for the same.
const running: Partial<Record<ScreenList, Promise<boolean>>> = {}

/**
 * Makes sure the session holds `list`: read once, then held (`refresh`
 * reads it again). Resolves whether it is there. A read overtaken by a new
 * session (logout, another login) is dropped.
 */
export function ensureList(list: ScreenList, refresh = false): Promise<boolean> {
  if (!state.user) return Promise.resolve(false)
  if (state.fetched[list] && !refresh) return Promise.resolve(true)
  const under = running[list]
  if (under) return under
  const read = readList(list).finally(() => {
    delete running[list]
  })
  running[list] = read
  return read
}

async function readList(list: ScreenList): Promise<boolean> {
  const target = state[list]
  state.loading[list] = 'busy'
  try {
    const items = await api.get<Need[] | Order[] | ActivityEvent[]>(listPath(list))
    // Another session since, or a write's answer that replaced the list
    // whole (the profile's orders): this read's items are not wanted.
    if (state[list] !== target) {
      state.loading[list] = 'idle'
      return false
    }
    // In place, so that what follows the list (the planner's months
    // covered) still holds it.
    ;(target as object[]).splice(0, target.length, ...heldAll(items as object[]))
    state.fetched[list] = true
    state.loading[list] = 'idle'
    return true
  } catch (err) {
    if (state[list] === target) state.loading[list] = 'error'
    notifyError(LIST_MESSAGES[list], errorMessage(err))
    return false
  }
}

/** Reads again the lists this session holds (after a new user load): 304s while unchanged. */
export function refreshLists(): Promise<boolean[]> {
  const lists = (Object.keys(state.fetched) as ScreenList[]).filter((l) => state.fetched[l])
  return Promise.all(lists.map((l) => ensureList(l, true)))
}

/** The user load's counters (a shop's needs: the first steps' checklist). */
export const useCounts = () => useSnapshot(state).counts

/** Whether this session holds `list` (its screen may say "nothing" rather than wait). */
export const useListFetched = (list: ScreenList) => useSnapshot(state).fetched[list]

/** The dashboard chart's series, with the user they were read for. */
export const purchases = proxy<{ owner: string | null; value: Purchases | null }>({ owner: null, value: null })

/** Reads the chart's series (`GET /api/stats/purchases`): a 304 while unchanged. */
export async function loadPurchases(): Promise<boolean> {
  const owner = state.user?._id ?? null
  if (!owner) return false
  try {
    const value = await api.get<Purchases>('/api/stats/purchases')
    if ((state.user?._id ?? null) !== owner) return false
    Object.assign(purchases, { owner, value })
    return true
  } catch (err) {
    notifyError(LIST_MESSAGES.purchases, errorMessage(err))
    return false
  }
}

/** The chart's series of the session's user; null until read. */
export function usePurchases(): Purchases | null {
  const p = useSnapshot(purchases)
  const userId = useSnapshot(state).user?._id ?? null
  return p.owner !== null && p.owner === userId ? (p.value as Purchases | null) : null
}
