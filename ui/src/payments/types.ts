// What `GET /api/payments` answers (PRODUCT §16 "Payments"): per partner,
// the documents with their balance and the payments between the two.
// Amounts are EUR with two decimals.

import type { FlatRateDocuments } from './FlatRate'

export type DocumentKind = 'invoice' | 'complement' | 'credit' | 'discount'
export type DocumentStatus = 'issued' | 'partly-paid' | 'paid' | 'overdue' | 'imputed'
export type PaymentMethod = 'virement' | 'cheque' | 'especes' | 'prelevement'
export type PaymentStatus = 'declared' | 'recorded' | 'refused' | 'undone'

export interface PaymentDocument {
  _id: string
  kind: DocumentKind
  number: string
  issueDate: string
  dueDate?: string
  total: number
  credited: number
  paid: number
  balance: number
  status: DocumentStatus
  refers?: string
  /** Where its PDF is downloaded. */
  path: string
  /** The escompte (EUR) the shop may deduct from a payment received by `discountUntil` (PRODUCT §16 "Escompte"). */
  discount?: number
  discountUntil?: string
}

/** Whether a document is a credit note — of a claim or of an escompte —, which reduces its invoice. */
export const isCredit = (kind: DocumentKind) => kind === 'credit' || kind === 'discount'

export interface Payment {
  _id: string
  amount: number
  paidOn: string
  method: PaymentMethod
  reference: string
  status: PaymentStatus
  /** Declared by the shop (else recorded by the producer). */
  byShop: boolean
  createdAt: string
  allocations: { documentId: string; amount: number }[]
}

export interface PaymentAccount {
  partnerId: string
  partnerName: string
  owed: number
  /** What recorded payments left over once every document is paid (a credit of the shop). */
  onAccount: number
  overdue: number
  declared: number
  nextDue?: string
  /** Whether the reminders job reminds this shop (a producer's switch). */
  reminders: boolean
  /** Producers: the late-payment penalties and 40 € indemnities they may claim (information). */
  penalties: number
  indemnities: number
  /** Producers: the invoices paid late or still overdue, with their penalties per period (empty for a shop). */
  late: LateInvoice[]
  documents: PaymentDocument[]
  payments: Payment[]
  /** Shops: the day the producer's IBAN changed, when within the last 30 days (PRODUCT §16 "Payments"). */
  ibanChangedOn?: string
  /** The buyer's documents of the flat-rate refund, when the producer sells under it (FlatRate.tsx). */
  flatRate?: FlatRateDocuments
}

/** A stretch of days an invoice was late at one balance and one rate (rates in percent). */
export interface PenaltyPeriod {
  from: string
  to: string
  days: number
  balance: number
  ecbRate: number
  rate: number
  /** false when the semester's ECB rate is not set and an earlier one's is carried. */
  rateListed: boolean
  penalty: number
}

/** What a producer may claim of one invoice paid late or still overdue. */
export interface LateInvoice {
  documentId: string
  number: string
  dueDate: string
  /** The day it was paid off, late; absent while something is left to pay. */
  paidOff?: string
  days: number
  penalty: number
  indemnity: number
  periods: PenaltyPeriod[]
}

/** What the transfer file of the invoices chosen will carry (`GET /api/payments/transfer`). */
export interface TransferPreview {
  executionDate: string
  total: number
  transfers: { partnerId: string; name: string; iban: string; amount: number; remittance: string }[]
}

export interface PaymentsView {
  accounts: PaymentAccount[]
  today: string
}

/** A payment as its author enters it. */
export interface PaymentEntry {
  partnerId: string
  amount: number
  paidOn: string
  method: PaymentMethod
  reference: string
  documents: string[]
}
