// State and actions of the payment screens (PRODUCT §16 "Payments"): the
// accounts `GET /api/payments` answers, and the producer's and shop's
// actions, each answering the accounts afresh. Not part of the user load:
// its own valtio proxy, read through usePayments(). The accounts list the
// open documents and the recent months' (issue 42); the older settled
// documents and payments come a page at a time (loadOlder), kept per
// account until the accounts are answered again.
import { proxy, useSnapshot } from 'valtio'
import { ApiError, api, errorMessage, toApiError } from '../api'
import { progress } from '../notify'
import { PAYMENT_TOASTS } from '../payments/labels'
import type {
  Payment,
  PaymentDocument,
  PaymentsHistory,
  PaymentEntry,
  PaymentsView,
  TransferPreview,
} from '../payments/types'
import type { LoadStatus } from './state'

/** The older rows of one account read so far, and what remains. */
export interface OlderRows {
  /** Settled documents and payments, most recent first, page after page. */
  documents: PaymentDocument[]
  payments: Payment[]
  /** The next page's start (YYYY-MM-DD); '' when none remains. */
  before: string
  /** How many older documents and payments remain. */
  olderDocuments: number
  olderPayments: number
  busy: boolean
  error: string | null
}

export interface PaymentsState {
  /** The user the accounts belong to; another user starts afresh. */
  owner: string | null
  data: PaymentsView | null
  status: LoadStatus
  error: string | null
  /** The older rows read, by partner id; emptied whenever the accounts are answered again. */
  older: Record<string, OlderRows>
}

const initial = (owner: string | null = null): PaymentsState => ({
  owner,
  data: null,
  status: 'idle',
  error: null,
  older: {},
})

/** The accounts answered afresh: the pages of older rows start over. */
function setAccounts(data: PaymentsView): void {
  paymentsState.data = data
  paymentsState.older = {}
}

export const paymentsState = proxy<PaymentsState>(initial())

/** Forgets everything when the screen opens for another user. */
export function claimPayments(owner: string): void {
  if (paymentsState.owner !== owner) Object.assign(paymentsState, initial(owner))
}

export async function loadPayments(): Promise<void> {
  paymentsState.status = 'busy'
  try {
    setAccounts(await api.get<PaymentsView>('/api/payments'))
    paymentsState.status = 'idle'
    paymentsState.error = null
  } catch (err) {
    paymentsState.status = 'error'
    paymentsState.error = errorMessage(err)
  }
}

/**
 * Reads the next page of an account's older settled documents and payments
 * (`GET /api/payments/{partnerId}/history`) and appends it to those shown;
 * a failure stays on the account, in French, until the next try.
 */
export async function loadOlder(partnerId: string): Promise<void> {
  const account = paymentsState.data?.accounts.find((a) => a.partnerId === partnerId)
  if (!account) return
  let rows = paymentsState.older[partnerId]
  if (!rows) {
    paymentsState.older[partnerId] = {
      documents: [],
      payments: [],
      before: account.olderBefore ?? '',
      olderDocuments: account.olderDocuments ?? 0,
      olderPayments: account.olderPayments ?? 0,
      busy: false,
      error: null,
    }
    rows = paymentsState.older[partnerId]
  }
  if (!rows.before || rows.busy) return
  rows.busy = true
  rows.error = null
  try {
    const page = await api.get<PaymentsHistory>(
      `/api/payments/${encodeURIComponent(partnerId)}/history?before=${encodeURIComponent(rows.before)}`,
    )
    // Should the accounts have been answered again meanwhile, rows is no
    // longer in the state: the page lands nowhere, and the pages start over.
    rows.documents.push(...page.documents)
    rows.payments.push(...page.payments)
    rows.before = page.before ?? ''
    rows.olderDocuments = page.olderDocuments
    rows.olderPayments = page.olderPayments
  } catch (err) {
    rows.error = errorMessage(err)
  } finally {
    rows.busy = false
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
    setAccounts(await api[method]<PaymentsView>(path, body))
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

/** The path of the shop's SEPA transfer file paying the documents named. */
export const transferPath = (ids: readonly string[]) =>
  `/print/transfer?documents=${ids.map(encodeURIComponent).join(',')}`

/**
 * What the shop's transfer file of the invoices named will carry (PRODUCT
 * §16 "Paying by bank transfer"): its execution date, and per producer the
 * account, the amount and the remittance information.
 */
export const previewTransfer = (ids: readonly string[], signal?: AbortSignal) =>
  api.get<TransferPreview>(`/api/payments/transfer?documents=${ids.map(encodeURIComponent).join(',')}`, signal)

/**
 * Downloads the shop's SEPA credit transfer file for the invoices chosen
 * (PRODUCT §16 "Paying by bank transfer"); a refusal (an IBAN missing)
 * shows as a toast with the daemon's French message.
 */
export async function downloadTransfer(ids: readonly string[]): Promise<boolean> {
  const toast = progress(PAYMENT_TOASTS.transferProgress)
  try {
    const response = await fetch(transferPath(ids), { credentials: 'same-origin' })
    if (!response.ok) throw await toApiError(response)
    const blob = await response.blob()
    const name = /filename="([^"]+)"/.exec(response.headers.get('Content-Disposition') ?? '')?.[1] ?? 'virements.xml'
    const url = URL.createObjectURL(blob)
    const link = document.createElement('a')
    link.href = url
    link.download = name
    link.click()
    URL.revokeObjectURL(url)
    toast.success(PAYMENT_TOASTS.transferReady)
    return true
  } catch (err) {
    toast.failure(PAYMENT_TOASTS.transferFailed, errorMessage(err))
    return false
  }
}

/** The producer turns the reminders of a shop on or off. */
export const setReminders = (shopId: string, enabled: boolean) =>
  act(
    'put',
    `/api/reminders/${encodeURIComponent(shopId)}`,
    { enabled },
    {
      progress: PAYMENT_TOASTS.remindersProgress,
      success: enabled ? PAYMENT_TOASTS.remindersOn : PAYMENT_TOASTS.remindersOff,
      failure: PAYMENT_TOASTS.remindersFailed,
    },
  )
