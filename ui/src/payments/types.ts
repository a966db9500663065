// What `GET /api/payments` answers (PRODUCT §16 "Payments"): per partner,
// the documents with their balance and the payments between the two, named
// after the schemas of the OpenAPI document (../schema.gen.ts, `make
// ui-types`). Amounts are EUR with two decimals.

import type { components } from '../schema.gen'

type Schemas = components['schemas']

export type PaymentsView = Schemas['PaymentsOutputBody']
export type PaymentAccount = Schemas['AccountView']
export type PaymentDocument = Schemas['DocumentView']
export type Payment = Schemas['PaymentView']
/** A page of an account's older settled documents and payments (`GET /api/payments/{partnerId}/history`). */
export type PaymentsHistory = Schemas['PaymentsHistoryOutputBody']
/** What a producer may claim of one invoice paid late or still overdue. */
export type LateInvoice = Schemas['PenaltyView']
/** A stretch of days an invoice was late at one balance and one rate (rates in percent). */
export type PenaltyPeriod = Schemas['PenaltyPeriodView']
/** What the transfer file of the invoices chosen will carry (`GET /api/payments/transfer`). */
export type TransferPreview = Schemas['TransferPreviewOutputBody']

export type DocumentKind = PaymentDocument['kind']
export type DocumentStatus = PaymentDocument['status']
export type PaymentMethod = Payment['method']
export type PaymentStatus = Payment['status']

/** Whether a document is a credit note — of a claim or of an escompte —, which reduces its invoice. */
export const isCredit = (kind: DocumentKind) => kind === 'credit' || kind === 'discount'

/** A payment as its author enters it (`PaymentBody` in the document, read there as optional text that core refuses in French). */
export interface PaymentEntry {
  partnerId: string
  amount: number
  paidOn: string
  method: PaymentMethod
  reference: string
  documents: string[]
}
