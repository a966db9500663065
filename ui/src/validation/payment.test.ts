import { describe, expect, it } from 'vitest'
import type { PaymentEntry } from '../payments/types'
import { PAYMENT_MESSAGES, isCents, validatePayment } from './payment'

const entry = (over: Partial<PaymentEntry> = {}): PaymentEntry => ({
  partnerId: 'd1',
  amount: 125.4,
  paidOn: '2026-12-02',
  method: 'virement',
  reference: '',
  documents: [],
  ...over,
})

describe('payment entry', () => {
  it('accepts euros and cents paid today or before', () => {
    expect(validatePayment(entry(), '2026-12-02')).toEqual({})
    expect(isCents(0.01)).toBe(true)
    expect(isCents(10_000_000)).toBe(true)
  })
  it('refuses what the daemon refuses, with its messages', () => {
    expect(validatePayment(entry({ amount: 0 }), '2026-12-02')).toEqual({ amount: PAYMENT_MESSAGES.amount })
    expect(validatePayment(entry({ amount: 1.005 }), '2026-12-02')).toEqual({ amount: PAYMENT_MESSAGES.amount })
    expect(validatePayment(entry({ amount: 10_000_000.01 }), '2026-12-02').amount).toBe(PAYMENT_MESSAGES.amount)
    expect(validatePayment(entry({ amount: Number.NaN }), '2026-12-02').amount).toBe(PAYMENT_MESSAGES.amount)
    expect(validatePayment(entry({ paidOn: '2026-12-03' }), '2026-12-02')).toEqual({ paidOn: PAYMENT_MESSAGES.future })
    expect(validatePayment(entry({ paidOn: 'hier' }), '2026-12-02')).toEqual({ paidOn: PAYMENT_MESSAGES.paidOn })
    expect(validatePayment(entry({ method: 'troc' as PaymentEntry['method'] }), '2026-12-02')).toEqual({
      method: PAYMENT_MESSAGES.method,
    })
    expect(validatePayment(entry({ reference: 'x'.repeat(141) }), '2026-12-02')).toEqual({
      reference: PAYMENT_MESSAGES.reference,
    })
  })
})
