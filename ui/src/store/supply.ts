// State and actions of the supply screen (PRODUCT §2 "Supply screen"): the
// window asked for, the projection GET /api/supply answered, and the
// selected cell. The projection is not part of the user load, so it lives in
// its own valtio proxy; components read it through useSupply() only.
import { proxy, useSnapshot } from 'valtio'
import { api, errorMessage } from '../api'
import type { SupplyProjection } from '../supply/types'
import type { LoadStatus } from './state'

export interface SupplySelection {
  product: string
  date: string
}

export interface SupplyState {
  /** The user the projection belongs to; another user starts afresh. */
  owner: string | null
  /** The window asked for (the answer may still be on its way). */
  start: string | null
  days: number
  data: SupplyProjection | null
  status: LoadStatus
  error: string | null
  selected: SupplySelection | null
}

function initialSupplyState(owner: string | null = null): SupplyState {
  return { owner, start: null, days: 0, data: null, status: 'idle', error: null, selected: null }
}

/** The store of the supply screen. */
export const supplyState = proxy<SupplyState>(initialSupplyState())

let lastRequest = 0

/** Forgets everything when the screen opens for another user. */
export function claimSupply(owner: string): void {
  if (supplyState.owner !== owner) Object.assign(supplyState, initialSupplyState(owner))
}

/**
 * Loads the window. An answer overtaken by a later request is dropped, so
 * quick clicks on the arrows end on the last window asked for. Returns
 * whether this answer was kept.
 */
export async function loadSupply(start: string, days: number): Promise<boolean> {
  const request = ++lastRequest
  supplyState.start = start
  supplyState.days = days
  supplyState.status = 'busy'
  try {
    const query = new URLSearchParams({ start, days: String(days) })
    const data = await api.get<SupplyProjection>(`/api/supply?${query}`)
    if (request !== lastRequest) return false
    supplyState.data = data
    supplyState.status = 'idle'
    supplyState.error = null
    const selected = supplyState.selected
    if (selected && !data.dates.includes(selected.date)) supplyState.selected = null
    return true
  } catch (err) {
    if (request !== lastRequest) return false
    supplyState.status = 'error'
    supplyState.error = errorMessage(err)
    return false
  }
}

/** Selects a cell (clicking it again keeps it selected). */
export function selectCell(product: string, date: string): void {
  supplyState.selected = { product, date }
}

/** The supply screen's state, for components. */
export const useSupply = () => useSnapshot(supplyState)
