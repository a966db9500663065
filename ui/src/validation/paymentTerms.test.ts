import { describe, expect, it } from 'vitest'
import { DEFAULT_TERMS, TERMS_MESSAGES, validateTerms } from './paymentTerms'

describe('payment terms', () => {
  it('accepts the legal maximum and shorter terms', () => {
    expect(validateTerms(DEFAULT_TERMS)).toEqual({})
    expect(validateTerms({ basis: 'month', days: 9, discount: 250, discountDays: 8 })).toEqual({})
  })
  it('refuses terms past the law, as the daemon does', () => {
    expect(validateTerms({ basis: 'decade', days: 31, discount: 0, discountDays: 0 })).toEqual({
      days: TERMS_MESSAGES.days,
    })
    expect(validateTerms({ basis: 'month', days: 10, discount: 0, discountDays: 0 })).toEqual({
      days: TERMS_MESSAGES.days,
    })
    expect(validateTerms({ basis: 'decade', days: 1.5, discount: 0, discountDays: 0 }).days).toBe(TERMS_MESSAGES.days)
    // Before the monthly invoice, issued on the month's last day.
    expect(validateTerms({ basis: 'decade', days: 20, discount: 0, discountDays: 0 }).days).toBe(TERMS_MESSAGES.days)
    expect(validateTerms({ basis: 'decade', days: 0, discount: 0, discountDays: 0 }).days).toBe(TERMS_MESSAGES.days)
    expect(validateTerms({ basis: 'decade', days: 21, discount: 0, discountDays: 0 })).toEqual({})
    expect(validateTerms({ basis: 'month', days: 0, discount: 0, discountDays: 0 })).toEqual({})
    expect(validateTerms({ basis: 'decade', days: Number.NaN, discount: 0, discountDays: 0 }).days).toBe(
      TERMS_MESSAGES.days,
    )
  })
  it('wants a discount with its window, up to 10 %', () => {
    expect(validateTerms({ basis: 'decade', days: 30, discount: 200, discountDays: 0 })).toEqual({
      discount: TERMS_MESSAGES.discount,
    })
    expect(validateTerms({ basis: 'decade', days: 30, discount: 1001, discountDays: 10 }).discount).toBe(
      TERMS_MESSAGES.discount,
    )
  })
})
