// Minimum order and delivery fees (PRODUCT §16 "Minimum order and delivery
// fees"): the producer's settings (`GET/PUT /api/user/delivery-terms`, its
// exceptions per shop under `/shops/{shopId}`), each change answering the
// settings afresh, and the terms a producer gives the session's shop
// (`GET /api/producers/{producerId}/delivery-terms`), kept per producer for
// the proposal view. Its own valtio proxy, read through useFees().
import { proxy, useSnapshot } from 'valtio'
import { ApiError, api, errorMessage } from '../api'
import { progress } from '../notify'
import type { components } from '../schema.gen'
import type { LoadStatus } from './state'

export type FeeSettings = components['schemas']['FeesSettings']
export type FeeTerms = components['schemas']['FeesTerms']
export type AppliedTerms = components['schemas']['FeesApplied']

export const FEES_SAVED = 'Conditions de livraison enregistrées'
export const FEES_FAILED = "Échec de l'enregistrement des conditions de livraison"

export interface FeesState {
  settings: FeeSettings | null
  status: LoadStatus
  error: string | null
  /** The terms each producer gives the session's shop, by producer id. */
  applied: Record<string, AppliedTerms>
}

export const feesState = proxy<FeesState>({ settings: null, status: 'idle', error: null, applied: {} })

const path = '/api/user/delivery-terms'

/** Reads the producer's settings. */
export async function loadFees(): Promise<void> {
  feesState.status = 'busy'
  try {
    const settings = await api.get<FeeSettings>(path)
    if (!Array.isArray(settings?.terms?.bands)) throw new Error('conditions de livraison illisibles')
    feesState.settings = settings
    feesState.status = 'idle'
    feesState.error = null
  } catch (err) {
    feesState.status = 'error'
    feesState.error = errorMessage(err)
  }
}

/** What a change reports: nothing, or the field errors the daemon named ("bands[0].fee" → message). */
export type FeesOutcome = Record<string, string> | null

async function change(send: () => Promise<FeeSettings>): Promise<FeesOutcome> {
  const toast = progress('Modification en cours')
  try {
    feesState.settings = await send()
    toast.success(FEES_SAVED)
    return null
  } catch (err) {
    toast.failure(FEES_FAILED, errorMessage(err))
    return err instanceof ApiError ? err.fieldErrors() : null
  }
}

/** Saves the producer's terms for every shop (amounts in euros). */
export function saveTerms(terms: FeeTerms): Promise<FeesOutcome> {
  return change(() => api.put<FeeSettings>(path, terms))
}

/** Saves the producer's own minimum or fee for a shop (either undefined: the producer's). */
export function saveException(shopId: string, minimum?: number, fee?: number): Promise<FeesOutcome> {
  return change(() => api.put<FeeSettings>(`${path}/shops/${encodeURIComponent(shopId)}`, { minimum, fee }))
}

/** Removes the producer's exception for a shop. */
export function deleteException(shopId: string): Promise<FeesOutcome> {
  return change(() => api.del<FeeSettings>(`${path}/shops/${encodeURIComponent(shopId)}`))
}

/** Reads (once) the terms a producer gives the session's shop; a failure leaves them unknown. */
export async function loadApplied(producerId: string): Promise<void> {
  if (feesState.applied[producerId]) return
  try {
    const a = await api.get<AppliedTerms>(`/api/producers/${encodeURIComponent(producerId)}/delivery-terms`)
    if (typeof a?.minimum === 'number') feesState.applied[producerId] = a
  } catch {
    // The proposal view shows nothing of terms it could not read.
  }
}

export function useFees() {
  return useSnapshot(feesState)
}
