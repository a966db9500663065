// State and actions of the payment screens (PRODUCT §16 "Payments"): the
// accounts `GET /api/payments` answers, and the producer's and shop's
// actions, each answering the accounts afresh. Not part of the user load:
// its own valtio proxy, read through usePayments().
import { proxy, useSnapshot } from 'valtio'
import { ApiError, api, errorMessage } from '../api'
import { progress } from '../notify'
import { PAYMENT_TOASTS } from '../payments/labels'
import type { PaymentEntry, PaymentsView } from '../payments/types'
import type { LoadStatus } from './state'

export interface PaymentsState {
  /** The user the accounts belong to; another user starts afresh. */
  owner: string | null
  data: PaymentsView | null
  status: LoadStatus
  error: string | null
}

const initial = (owner: string | null = null): PaymentsState => ({ owner, data: null, status: 'idle', error: null })

export const paymentsState = proxy<PaymentsState>(initial())

/** Forgets everything when the screen opens for another user. */
export function claimPayments(owner: string): void {
  if (paymentsState.owner !== owner) Object.assign(paymentsState, initial(owner))
}

export async function loadPayments(): Promise<void> {
  paymentsState.status = 'busy'
  try {
    paymentsState.data = await api.get<PaymentsView>('/api/payments')
    paymentsState.status = 'idle'
    paymentsState.error = null
  } catch (err) {
    paymentsState.status = 'error'
    paymentsState.error = errorMessage(err)
  }
}

/** The outcome of an action: done, or failed with the daemon's field messages. */
export type PaymentResult = { ok: true } | { ok: false; fieldErrors: Record<string, string> }

async function act(
  method: 'post' | 'put',
  path: string,
  body: unknown,
  texts: { progress: string; success: string; failure: string },
): Promise<PaymentResult> {
  const toast = progress(texts.progress)
  try {
    paymentsState.data = await api[method]<PaymentsView>(path, body)
    toast.success(texts.success)
    return { ok: true }
  } catch (err) {
    toast.failure(texts.failure, errorMessage(err))
    return { ok: false, fieldErrors: err instanceof ApiError ? err.fieldErrors() : {} }
  }
}

/** The producer records a payment received. */
export const recordPayment = (entry: PaymentEntry) =>
  act('post', '/api/payments', entry, {
    progress: PAYMENT_TOASTS.recordProgress,
    success: PAYMENT_TOASTS.recorded,
    failure: PAYMENT_TOASTS.recordFailed,
  })

/** The shop declares a payment sent. */
export const declarePayment = (entry: PaymentEntry) =>
  act('post', '/api/payments/declare', entry, {
    progress: PAYMENT_TOASTS.declareProgress,
    success: PAYMENT_TOASTS.declared,
    failure: PAYMENT_TOASTS.declareFailed,
  })

/** The producer confirms (or refuses) a declared payment. */
export const confirmPayment = (id: string, accepted: boolean) =>
  act(
    'put',
    `/api/payments/${encodeURIComponent(id)}/confirm`,
    { accepted },
    {
      progress: PAYMENT_TOASTS.confirmProgress,
      success: PAYMENT_TOASTS.confirmed,
      failure: PAYMENT_TOASTS.confirmFailed,
    },
  )

/** Undoes a payment entered by mistake (or withdraws a declaration). */
export const undoPayment = (id: string) =>
  act('put', `/api/payments/${encodeURIComponent(id)}/undo`, undefined, {
    progress: PAYMENT_TOASTS.undoProgress,
    success: PAYMENT_TOASTS.undone,
    failure: PAYMENT_TOASTS.undoFailed,
  })

/** The payment screens' state, for components. */
export const usePayments = () => useSnapshot(paymentsState)
