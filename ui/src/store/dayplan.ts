// State and actions of the producer's delivery day (PRODUCT §16 "The
// farmer's day"): the day `GET /api/deliveries/day/{date}` answers — pick
// sheet, packing sheets, round — and the producer's reordering of the
// round's stops, kept by `PUT /api/deliveries/day/{date}/round`, which
// answers the day afresh. Its own valtio proxy, read through useDeliveryDay().
import { proxy, useSnapshot } from 'valtio'
import { api, errorMessage } from '../api'
import { notifyError } from '../notify'
import type { components } from '../schema.gen'
import type { LoadStatus } from './state'

export type DeliveryDay = components['schemas']['DayplanDay']
export type RoundStop = components['schemas']['DayplanStop']

/** The failure toast of a reordering (its success shows on the list itself). */
export const ROUND_SAVE_FAILED = "Échec de l'enregistrement de l'ordre de la tournée"

export interface DayState {
  /** The date shown, YYYY-MM-DD; another date starts afresh. */
  date: string | null
  day: DeliveryDay | null
  status: LoadStatus
  error: string | null
  /** True while an order is being saved. */
  saving: boolean
}

const initial = (date: string | null = null): DayState => ({
  date,
  day: null,
  status: 'idle',
  error: null,
  saving: false,
})

export const dayState = proxy<DayState>(initial())

const dayPath = (date: string) => `/api/deliveries/day/${encodeURIComponent(date)}`

/** Reads the day of `date` (forgetting another date's first). */
export async function loadDay(date: string): Promise<void> {
  if (dayState.date !== date) Object.assign(dayState, initial(date))
  dayState.status = 'busy'
  try {
    const day = await api.get<DeliveryDay>(dayPath(date))
    if (dayState.date !== date) return // another date was opened meanwhile
    dayState.day = day
    dayState.status = 'idle'
    dayState.error = null
  } catch (err) {
    if (dayState.date !== date) return
    dayState.status = 'error'
    dayState.error = errorMessage(err)
  }
}

/** The shop ids of `stops` with the one at `index` moved by `delta` (−1 up, +1 down); null when it cannot move. */
export function moved(stops: readonly { shopId: string }[], index: number, delta: -1 | 1): string[] | null {
  const to = index + delta
  if (index < 0 || index >= stops.length || to < 0 || to >= stops.length) return null
  const ids = stops.map((s) => s.shopId)
  ;[ids[index], ids[to]] = [ids[to], ids[index]]
  return ids
}

/** Saves the round in the order of `shopIds` (empty: back to the computed order); the day answered replaces the shown one. */
export async function saveRound(shopIds: string[]): Promise<boolean> {
  const date = dayState.date
  if (!date) return false
  dayState.saving = true
  try {
    const day = await api.put<DeliveryDay>(`${dayPath(date)}/round`, { stops: shopIds })
    if (dayState.date === date) dayState.day = day
    return true
  } catch (err) {
    notifyError(ROUND_SAVE_FAILED, errorMessage(err))
    return false
  } finally {
    dayState.saving = false
  }
}

/** Moves the stop at `index` up (−1) or down (+1) and saves the order. */
export async function moveStop(index: number, delta: -1 | 1): Promise<boolean> {
  const stops = dayState.day?.round.stops ?? []
  const ids = moved(stops, index, delta)
  if (!ids || dayState.saving) return false
  return saveRound(ids)
}

export const useDeliveryDay = () => useSnapshot(dayState)
