// Needs actions (PRODUCT §4 "Need cell editing", §7 calls, §8 toasts): create,
// update, delete and bulk-add the shop's own needs, keeping `state.needs` in
// sync with what the daemon answered, and load one shop's needs for a
// producer into `state.shopNeeds`. Each action shows its progress toast, then
// its success or failure toast with the daemon's French detail, and returns
// what happened; it never navigates.
import { api, errorMessage } from '../api'
import { notifyError, progress } from '../notify'
import { decideCellWrite } from '../planner/cellInput'
import type { Month } from '../planner/period'
import { gaps } from './lists'
import { type Period, shopNeedsPath } from './periods'
import type { ActivityEvent, Need, Unit } from '../types'
import { prependEvents } from './merge'
import { held, heldAll, state } from './state'

/** Toast texts of PRODUCT §8. */
export const NEED_MESSAGES = {
  createProgress: 'Création en cours',
  created: 'Création effectuée',
  createFailed: 'Échec de la création',
  updateProgress: 'Modification en cours',
  updated: 'Modification effectuée',
  updateFailed: 'Échec de la modification',
  deleteProgress: 'Suppression en cours',
  deleted: 'Suppression effectuée',
  deleteFailed: 'Échec de la suppression',
  loadFailed: 'Échec du chargement des besoins',
} as const

/** The outcome of an action: its value, or the message shown to the user. */
export type ActionResult<T> = { ok: true; value: T } | { ok: false; message: string }

/** Body of `POST /api/needs`. */
export interface NewNeed {
  product: string
  /** The month, "2026-12-01". */
  date: string
  quantity: number
}

/** Body of `POST /api/needs/bulk`: one product, a quantity per month. */
export interface BulkNeeds {
  product: string
  quantities: number[]
  dates: string[]
}

// Writes in flight: the needs list is busy while any runs.
let writing = 0

async function write<T>(
  titles: { progress: string; success: string; failure: string },
  call: () => Promise<T>,
  apply: (value: T) => void,
): Promise<ActionResult<T>> {
  const toast = progress(titles.progress)
  writing += 1
  state.loading.needs = 'busy'
  try {
    const value = await call()
    apply(value)
    toast.success(titles.success)
    return { ok: true, value }
  } catch (err) {
    const message = errorMessage(err)
    toast.failure(titles.failure, message)
    return { ok: false, message }
  } finally {
    writing -= 1
    if (writing === 0) state.loading.needs = 'idle'
  }
}

/** Puts needs into the list, replacing the one with the same id or the same product and month. */
function upsertNeeds(needs: Need[]): void {
  for (const need of needs) {
    const index = state.needs.findIndex(
      (n) => n._id === need._id || (n.product === need.product && n.date === need.date),
    )
    if (index >= 0) state.needs[index] = held(need)
    else state.needs.push(held(need))
  }
}

/** Creates one need (`POST /api/needs`). */
export function createNeed(input: NewNeed): Promise<ActionResult<Need>> {
  return write(
    { progress: NEED_MESSAGES.createProgress, success: NEED_MESSAGES.created, failure: NEED_MESSAGES.createFailed },
    () => api.post<Need>('/api/needs', input),
    (need) => upsertNeeds([need]),
  )
}

/** Changes a need's quantity (`PUT /api/needs/{id}`). */
export function updateNeed(
  need: Pick<Need, '_id' | 'product' | 'date'>,
  quantity: number,
): Promise<ActionResult<Need>> {
  return write(
    { progress: NEED_MESSAGES.updateProgress, success: NEED_MESSAGES.updated, failure: NEED_MESSAGES.updateFailed },
    () =>
      api.put<Need>(`/api/needs/${encodeURIComponent(need._id)}`, {
        _id: need._id,
        product: need.product,
        date: need.date,
        quantity,
      }),
    (updated) => upsertNeeds([updated]),
  )
}

/** Deletes a need (`DELETE /api/needs/{id}`). */
export function removeNeed(id: string): Promise<ActionResult<Need>> {
  return write(
    { progress: NEED_MESSAGES.deleteProgress, success: NEED_MESSAGES.deleted, failure: NEED_MESSAGES.deleteFailed },
    () => api.del<Need>(`/api/needs/${encodeURIComponent(id)}`),
    () => {
      const index = state.needs.findIndex((n) => n._id === id)
      if (index >= 0) state.needs.splice(index, 1)
    },
  )
}

/** Sets one product's need for several months (`POST /api/needs/bulk`) and adds its event to the feed. */
export function bulkNeeds(input: BulkNeeds): Promise<ActionResult<Need[]>> {
  return write(
    { progress: NEED_MESSAGES.createProgress, success: NEED_MESSAGES.created, failure: NEED_MESSAGES.createFailed },
    async () => {
      const { needs, event } = await api.post<{ needs: Need[]; event: ActivityEvent }>('/api/needs/bulk', input)
      prependEvents([event])
      return needs
    },
    (needs) => upsertNeeds(needs),
  )
}

// A plain load shows no toast (issue 37: "Besoins chargés avec succès"
// covered the phone's proposal form for 4 s): the grid filling is the
// news; only a failure is told, by a toast and on the page.

// The months of the shop's needs read, per visit of the producer's planner.
let shopVisit = 0
const shopReads = new WeakMap<object, { visit: number; periods: Period[]; last: Period | null }>()

/** A new visit of a shop's needs: its months are read afresh (the page's mount). */
export function newShopVisit(): number {
  shopVisit += 1
  return shopVisit
}

const shopPath = shopNeedsPath

/**
 * Loads the months `months` of one shop's needs as the producer sees them
 * (`GET /api/needs?distributor=ID&from=&to=`, issue 42: the planner's
 * months in view) into `state.shopNeeds`, apart from the producer's own
 * `needs`: only the months this visit has not read. Another shop, or
 * another visit, starts a new list. A load overtaken by another shop is
 * dropped. Without `months`, the last months asked are read again (the
 * retry). Returns whether the needs were loaded.
 */
export async function loadShopNeeds(distributorId: string, visit: number, months?: Period): Promise<boolean> {
  let reads = shopReads.get(state.shopNeeds)
  if (state.shopNeeds.distributor !== distributorId || !reads || reads.visit !== visit) {
    state.shopNeeds = { distributor: distributorId, needs: [] }
    reads = { visit, periods: [], last: null }
    shopReads.set(state.shopNeeds, reads)
  }
  const want = months ?? reads.last
  if (!want) return false
  reads.last = want
  const list = state.shopNeeds
  const missing = gaps(want, reads.periods)
  if (missing.length === 0) return true
  reads.periods.push(...missing)
  state.loading.shopNeeds = 'busy'
  try {
    const answers = await Promise.all(missing.map((p) => api.get<Need[]>(shopPath(distributorId, p))))
    if (state.shopNeeds !== list) return false
    const inRead = (n: Need) => missing.some((p) => n.date >= p.from && (p.to === null || n.date <= p.to))
    list.needs = [...list.needs.filter((n) => !inRead(n)), ...heldAll(answers.flat())]
    state.loading.shopNeeds = 'idle'
    return true
  } catch (err) {
    reads.periods = reads.periods.filter((p) => !missing.includes(p))
    notifyError(NEED_MESSAGES.loadFailed, errorMessage(err))
    if (state.shopNeeds === list) state.loading.shopNeeds = 'error'
    return false
  }
}

/**
 * Reads one need of the shop a producer views (`GET /api/needs/{id}`) into
 * `state.shopNeeds`: a link names a need of a month not read yet. Returns
 * whether it is there; a need of another shop, or none, changes nothing.
 */
export async function loadShopNeed(distributorId: string, id: string): Promise<boolean> {
  const list = state.shopNeeds
  if (list.distributor !== distributorId) return false
  if (list.needs.some((n) => n._id === id)) return true
  try {
    const need = await api.get<Need>(`/api/needs/${encodeURIComponent(id)}`)
    if (state.shopNeeds !== list || need.distributor !== distributorId) return false
    if (!list.needs.some((n) => n._id === id)) list.needs.push(held(need))
    return true
  } catch {
    return false
  }
}

/**
 * Reads one need of the shop (`GET /api/needs/{id}`) into `state.needs`:
 * a link names a need of a month the planner has not read (issue 42).
 * Returns whether it is there; a need the shop cannot read changes nothing.
 */
export async function loadNeed(id: string): Promise<boolean> {
  const list = state.needs
  if (!state.user) return false
  if (list.some((n) => n._id === id)) return true
  try {
    const need = await api.get<Need>(`/api/needs/${encodeURIComponent(id)}`)
    if (state.needs !== list) return false
    upsertNeeds([need])
    return true
  } catch {
    return false
  }
}

/** What committing a cell did. */
export type CellOutcome = { kind: 'unchanged' } | { kind: 'saved' } | { kind: 'refused'; message: string }

/**
 * Commits the text typed into the shop's cell (product, month) by the PRODUCT §4
 * rule: deletes, updates, creates or changes nothing. A mistake is refused
 * with its message before any call; a refusal of the daemon carries its detail.
 */
export async function commitCell(
  product: string,
  unit: Unit,
  month: Month,
  text: string,
  current: Month,
): Promise<CellOutcome> {
  const need = state.needs.find((n) => n.product === product && n.date === month)
  const decision = decideCellWrite(need, text, unit, month, current)
  let result: ActionResult<Need>
  switch (decision.kind) {
    case 'none':
      return { kind: 'unchanged' }
    case 'invalid':
      return { kind: 'refused', message: decision.message }
    case 'create':
      result = await createNeed({ product, date: month, quantity: decision.quantity })
      break
    case 'update':
      result = await updateNeed(decision.need, decision.quantity)
      break
    case 'delete':
      result = await removeNeed(decision.need._id)
      break
  }
  return result.ok ? { kind: 'saved' } : { kind: 'refused', message: result.message }
}
