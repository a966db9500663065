// The progression statistics (PRODUCT §2 "Statistics"): `GET
// /api/stats/progression`, kept apart from the user load (its months reach
// two years back) in a small store of its own that remembers the user it was
// loaded for, so a reader never gets another session's figures.
import { proxy, useSnapshot } from 'valtio'
import { api } from '../api'
import type { ProgressionData } from '../stats/progression'
import type { LoadStatus } from './state'
import { state } from './state'

export interface ProgressionState {
  /** Id of the user the figures were loaded for. */
  owner: string | null
  data: ProgressionData | null
  status: LoadStatus
}

export const progression = proxy<ProgressionState>({ owner: null, data: null, status: 'idle' })

/** Empties the store, giving it to `owner` (tests, and a change of user). */
export function resetProgression(owner: string | null = null): void {
  Object.assign(progression, { owner, data: null, status: 'idle' })
}

/** Whether an answer has the expected shape (a wrong answer must not break the dashboard). */
function isProgression(x: unknown): x is ProgressionData {
  const p = x as ProgressionData | null
  return (
    !!p &&
    Array.isArray(p.months) &&
    p.months.every((m) => typeof m === 'string') &&
    Array.isArray(p.products) &&
    p.products.every(
      (s) =>
        typeof s?.product === 'string' &&
        Array.isArray(s.values) &&
        s.values.length === p.months.length &&
        s.values.every((v) => typeof v === 'number'),
    )
  )
}

/** Loads the user's monthly values per product; a failure leaves them null and marked error. */
export async function loadProgression(): Promise<boolean> {
  const id = state.user?._id ?? null
  if (progression.owner !== id) resetProgression(id)
  progression.status = 'busy'
  try {
    const answer = await api.get<unknown>('/api/stats/progression')
    if (!isProgression(answer)) throw new Error('réponse inattendue de /api/stats/progression')
    if (progression.owner !== id) return false
    progression.data = answer
    progression.status = 'idle'
    return true
  } catch (err) {
    console.error('progression:', err)
    if (progression.owner === id) progression.status = 'error'
    return false
  }
}

/** The figures and their loading state, for the session's user only. */
export function useProgression(): { data: ProgressionData | null; status: LoadStatus } {
  const p = useSnapshot(progression)
  const userId = useSnapshot(state).user?._id ?? null
  if (p.owner === null || p.owner !== userId) return { data: null, status: 'idle' }
  return { data: p.data as ProgressionData | null, status: p.status }
}
