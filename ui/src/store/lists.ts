// Each screen reads what it shows (issue 42): the user load (`GET
// /api/user`) carries what every screen needs — the user, the names its
// screens show, the counters — and the catalogue comes beside it (`GET
// /api/catalogue`, kept by the browser). The lists come when a screen that
// shows them opens, scoped to what it shows: the needs of the months in the
// planner's view (more as it moves, `ensureMonths`), the orders of the
// period the deliveries' tab shows, the feed's first page for the
// activities, the chart's aggregates for the dashboard. Each period is read
// once per session, only the months no read holds yet, then revalidated
// when the user load is (`refreshLists`): an unchanged answer is a 304
// (src/api.ts).
import { proxy, useSnapshot } from 'valtio'
import { api, errorMessage } from '../api'
import { notifyError } from '../notify'
import { addMonths, type Month, monthOf } from '../planner/period'
import { type MonthList, ordersPeriod, type Period, periodPath } from './periods'
import type { ActivityEvent, Need, Order, Purchases } from '../types'
import { type ScreenList, heldAll, state } from './state'

export { LIST_MONTHS_BACK, type MonthList, ordersPeriod, type Period, periodPath } from './periods'

// Past any month a list holds: an open period's end.
const OPEN_END = '9999-12-01'
const endOf = (p: Period): Month => p.to ?? OPEN_END

/** The failures' toasts (PRODUCT §8). */
export const LIST_MESSAGES: Record<ScreenList | 'purchases', string> = {
  needs: 'Échec du chargement des besoins',
  orders: 'Échec du chargement des livraisons',
  events: 'Échec du chargement des activités',
  purchases: 'Échec du chargement des statistiques',
}

/** The address of a list without months (the feed's first page). */
export function listPath(list: 'events'): string {
  return `/api/${list}`
}

/** The months of `want` that none of `held` covers, as periods in order (pure). */
export function gaps(want: Period, held: readonly Period[]): Period[] {
  const end = endOf(want)
  const out: Period[] = []
  let cursor: Month | null = want.from
  for (const h of [...held].sort((a, b) => a.from.localeCompare(b.from))) {
    if (cursor === null || h.from > end) break
    if (endOf(h) < cursor) continue
    if (h.from > cursor) out.push({ from: cursor, to: addMonths(h.from, -1) })
    cursor = h.to === null ? null : h.to >= cursor ? addMonths(h.to, 1) : cursor
  }
  if (cursor !== null && cursor <= end) out.push({ from: cursor, to: want.to })
  return out
}

const overlaps = (a: Period, b: Period) => a.from <= endOf(b) && b.from <= endOf(a)

/**
 * Makes sure the orders hold `orderId` when the user has it (the
 * reception): those of the weeks around `today`, then, when it is not
 * among them, those of 12 months back on. Resolves whether the reads
 * succeeded, the order found or not.
 */
export async function ensureOrder(orderId: string, today: string): Promise<boolean> {
  if (!(await ensureMonths('orders', ordersPeriod('recent', today)))) return false
  if (state.orders.some((o) => o._id === orderId)) return true
  return ensureMonths('orders', ordersPeriod('year', today))
}

// The periods read (or being read) of each list by months, per list object:
// a new session starts afresh. A list the session holds with no period
// recorded came whole from elsewhere — the profile's answer, whose orders
// are those of 12 months back on, every period a screen reads — and is held
// for every month.
interface MonthRead {
  period: Period
  done: Promise<boolean>
}
const monthReads = new WeakMap<object, MonthRead[]>()
const monthBusy: Record<MonthList, number> = { needs: 0, orders: 0 }

/**
 * Makes sure the session's `list` holds the months of `want`: reads the
 * months no read holds or is reading (`GET /api/needs|orders?from=&to=`),
 * waits for those under way. Resolves whether they are all there.
 */
export async function ensureMonths(list: MonthList, want: Period): Promise<boolean> {
  if (!state.user) return false
  const target = state[list]
  let reads = monthReads.get(target)
  if (!reads && state.fetched[list]) return true
  if (!reads) monthReads.set(target, (reads = []))
  for (const period of gaps(
    want,
    reads.map((r) => r.period),
  )) {
    const read: MonthRead = { period, done: Promise.resolve(false) }
    read.done = readPeriod(list, target, period).then((ok) => {
      const all = monthReads.get(target)
      if (!ok && all) all.splice(all.indexOf(read), 1)
      return ok
    })
    reads.push(read)
  }
  const results = await Promise.all(reads.filter((r) => overlaps(r.period, want)).map((r) => r.done))
  return results.every(Boolean) && state[list] === target
}

// Reads one period and puts its items in place of the list's items of those months.
async function readPeriod(list: MonthList, target: Need[] | Order[], period: Period): Promise<boolean> {
  monthBusy[list] += 1
  state.loading[list] = 'busy'
  const settle = (status: 'idle' | 'error') => {
    monthBusy[list] -= 1
    if (status === 'error' && state[list] === target) state.loading[list] = 'error'
    else if (status === 'idle' && monthBusy[list] === 0) state.loading[list] = 'idle'
  }
  try {
    const items = await api.get<Need[] | Order[]>(periodPath(list, period))
    if (state[list] !== target) {
      settle('idle')
      return false
    }
    const end = endOf(period)
    const kept = (target as { date: string }[]).filter((i) => {
      const m = monthOf(i.date)
      return m < period.from || m > end
    })
    ;(target as object[]).splice(0, target.length, ...kept, ...heldAll((items ?? []) as object[]))
    state.fetched[list] = true
    settle('idle')
    return true
  } catch (err) {
    settle('error')
    notifyError(LIST_MESSAGES[list], errorMessage(err))
    return false
  }
}

// The reads under way, per list: a second screen asking waits for the same.
const running: Partial<Record<'events', Promise<boolean>>> = {}

/**
 * Makes sure the session holds the feed's first page: read once, then held
 * (`refresh` reads it again). Resolves whether it is there. A read
 * overtaken by a new session (logout, another login) is dropped.
 */
export function ensureList(list: 'events', refresh = false): Promise<boolean> {
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

async function readList(list: 'events'): Promise<boolean> {
  const target = state[list]
  state.loading[list] = 'busy'
  try {
    const items = await api.get<ActivityEvent[]>(listPath(list))
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
export async function refreshLists(): Promise<boolean[]> {
  const reads: Promise<boolean>[] = []
  if (state.fetched.events) reads.push(ensureList('events', true))
  for (const list of ['needs', 'orders'] as const) {
    const target = state[list]
    for (const r of monthReads.get(target) ?? []) {
      reads.push(r.done.then((ok) => (ok ? readPeriod(list, target, r.period) : false)))
    }
  }
  return Promise.all(reads)
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
