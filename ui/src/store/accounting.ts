// State and actions of the accounting export (PRODUCT §16 "Export for the
// platform and the accountant"): what `GET /api/accounting` answers — the
// accounts of the user's FEC, their defaults, the months it can export —
// and the change of the accounts. Not part of the user load: its own
// valtio proxy, read through useAccounting().
import { proxy, useSnapshot } from 'valtio'
import { ApiError, api, errorMessage } from '../api'
import { progress } from '../notify'
import type { UserType } from '../types'
import type { LedgerAccounts } from '../validation/ledger'
import type { LoadStatus } from './state'

export interface AccountingView {
  accounts: LedgerAccounts
  defaults: LedgerAccounts
  /** "2026-12", latest first. */
  months: string[]
}

export interface AccountingState {
  /** The user the accounts belong to; another user starts afresh. */
  owner: string | null
  data: AccountingView | null
  status: LoadStatus
  error: string | null
}

const initial = (owner: string | null = null): AccountingState => ({ owner, data: null, status: 'idle', error: null })

export const accountingState = proxy<AccountingState>(initial())

/** Forgets everything when the panel opens for another user. */
export function claimAccounting(owner: string): void {
  if (accountingState.owner !== owner) Object.assign(accountingState, initial(owner))
}

export async function loadAccounting(): Promise<void> {
  accountingState.status = 'busy'
  try {
    accountingState.data = await api.get<AccountingView>('/api/accounting')
    accountingState.status = 'idle'
    accountingState.error = null
  } catch (err) {
    accountingState.status = 'error'
    accountingState.error = errorMessage(err)
  }
}

export const ACCOUNTING_TOASTS = {
  saveProgress: 'Enregistrement en cours',
  saved: 'Comptes enregistrés.',
  saveFailed: "Les comptes n'ont pas été enregistrés",
} as const

/** The outcome of saving: done, or failed with the daemon's field messages. */
export type AccountingResult = { ok: true } | { ok: false; fieldErrors: Record<string, string> }

/** Sets the accounts of the user's FEC; an empty one is its default. */
export async function saveAccounts(accounts: Partial<LedgerAccounts>): Promise<AccountingResult> {
  const toast = progress(ACCOUNTING_TOASTS.saveProgress)
  try {
    accountingState.data = await api.put<AccountingView>('/api/accounting/accounts', accounts)
    toast.success(ACCOUNTING_TOASTS.saved)
    return { ok: true }
  } catch (err) {
    toast.failure(ACCOUNTING_TOASTS.saveFailed, errorMessage(err))
    return { ok: false, fieldErrors: err instanceof ApiError ? err.fieldErrors() : {} }
  }
}

/** The accounting state, for components. */
export const useAccounting = () => useSnapshot(accountingState)

/** The zip of a month's books ("2026-12"): a producer's sales, a shop's purchases. */
export const booksPath = (role: UserType, month: string) =>
  role === 'producer' ? `/print/invoices/${month}` : `/print/purchases/${month}`
