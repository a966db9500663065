// Price comparisons of needs (PRODUCT §15 "Price comparison"), read from
// `GET /api/needs/{id}/prices` when a need is shown. Not part of the user
// load: its own valtio proxy, keyed by need, read through useComparison().
// Any acceptance changes the averages: the trade store forgets them all.
import { proxy, useSnapshot } from 'valtio'
import { api, errorMessage } from '../api'
import type { PriceComparison } from '../types'

export interface ComparisonEntry {
  status: 'busy' | 'idle' | 'error'
  data: PriceComparison | null
  error: string | null
}

export const comparisonState = proxy<{ byNeed: Record<string, ComparisonEntry> }>({ byNeed: {} })

/** Loads a need's comparison unless it is known or loading. */
export async function loadComparison(needId: string): Promise<void> {
  const known = comparisonState.byNeed[needId]
  if (known && known.status !== 'error') return
  comparisonState.byNeed[needId] = { status: 'busy', data: null, error: null }
  try {
    const data = await api.get<PriceComparison>(`/api/needs/${encodeURIComponent(needId)}/prices`)
    comparisonState.byNeed[needId] = { status: 'idle', data, error: null }
  } catch (err) {
    comparisonState.byNeed[needId] = { status: 'error', data: null, error: errorMessage(err) }
  }
}

/** Forgets every comparison (after an acceptance, at logout). */
export function forgetComparisons(): void {
  comparisonState.byNeed = {}
}

/** The comparison of a need; undefined before it is asked for. */
export function useComparison(needId: string): ComparisonEntry | undefined {
  return useSnapshot(comparisonState).byNeed[needId] as ComparisonEntry | undefined
}
