// State and actions of the producer's electronic invoicing (PRODUCT §16
// "Electronic invoicing through an approved platform"): its connection to
// its approved platform (PA) as `GET /api/user/pa` answers it — the client
// secret is never sent back —, "Tester la connexion", connecting and
// disconnecting. Not part of the user load: its own valtio proxy, read
// through usePA().
import { proxy, useSnapshot } from 'valtio'
import { ApiError, api, errorMessage } from '../api'
import { progress } from '../notify'
import type { components } from '../schema.gen'
import type { LoadStatus } from './state'

export type PAConnection = components['schemas']['PAConnectionView']
export type PAConnectionForm = components['schemas']['PAConnectionBody']

export interface PAState {
  /** The producer the connection belongs to; another user starts afresh. */
  owner: string | null
  data: PAConnection | null
  status: LoadStatus
  error: string | null
}

const initial = (owner: string | null = null): PAState => ({ owner, data: null, status: 'idle', error: null })

export const paState = proxy<PAState>(initial())

/** Forgets everything when the section opens for another user. */
export function claimPA(owner: string): void {
  if (paState.owner !== owner) Object.assign(paState, initial(owner))
}

export async function loadPA(): Promise<void> {
  paState.status = 'busy'
  try {
    paState.data = await api.get<PAConnection>('/api/user/pa')
    paState.status = 'idle'
    paState.error = null
  } catch (err) {
    paState.status = 'error'
    paState.error = errorMessage(err)
  }
}

export const PA_TOASTS = {
  saveProgress: 'Connexion à la plateforme agréée en cours',
  saved: 'Plateforme agréée connectée.',
  saveFailed: "La plateforme agréée n'a pas été connectée",
  disconnectProgress: 'Déconnexion en cours',
  disconnected: 'Plateforme agréée déconnectée : vos factures ne lui sont plus déposées.',
  disconnectFailed: "La plateforme agréée n'a pas été déconnectée",
} as const

/** The outcome of a test: the PA's answer told in French. */
export interface PATestResult {
  ok: boolean
  message: string
  fieldErrors: Record<string, string>
}

/** "Tester la connexion": a token, then the PA's healthcheck; nothing stored. */
export async function testPA(form: PAConnectionForm): Promise<PATestResult> {
  try {
    const out = await api.post<{ ok: boolean; message: string }>('/api/user/pa/test', form)
    return { ...out, fieldErrors: {} }
  } catch (err) {
    return { ok: false, message: errorMessage(err), fieldErrors: err instanceof ApiError ? err.fieldErrors() : {} }
  }
}

/** The outcome of connecting: done, or failed with the daemon's messages. */
export type PAResult = { ok: true } | { ok: false; message: string; fieldErrors: Record<string, string> }

/** Connects the producer to its PA (tested first by the daemon). */
export async function connectPA(form: PAConnectionForm): Promise<PAResult> {
  const toast = progress(PA_TOASTS.saveProgress)
  try {
    paState.data = await api.put<PAConnection>('/api/user/pa', form)
    toast.success(PA_TOASTS.saved)
    return { ok: true }
  } catch (err) {
    toast.failure(PA_TOASTS.saveFailed, errorMessage(err))
    return { ok: false, message: errorMessage(err), fieldErrors: err instanceof ApiError ? err.fieldErrors() : {} }
  }
}

export async function disconnectPA(): Promise<void> {
  const toast = progress(PA_TOASTS.disconnectProgress)
  try {
    paState.data = await api.del<PAConnection>('/api/user/pa')
    toast.success(PA_TOASTS.disconnected)
  } catch (err) {
    toast.failure(PA_TOASTS.disconnectFailed, errorMessage(err))
  }
}

/** The connection's state, for components. */
export const usePA = () => useSnapshot(paState)
