import { describe, expect, it } from 'vitest'
import { defaultVatRegime, VAT_REGIME_MESSAGES, validateVatRegime } from './vatRegime'

describe('VAT regime', () => {
  it('accepts the three regimes, the normal one with a VAT number', () => {
    expect(validateVatRegime('normal', 'FR32123456789')).toEqual({})
    expect(validateVatRegime('franchise', '')).toEqual({})
    expect(validateVatRegime('flat', '')).toEqual({})
  })
  it('refuses the normal regime without a VAT number, and any other regime, as the daemon does', () => {
    expect(validateVatRegime('normal', ' ')).toEqual({ vatRegime: VAT_REGIME_MESSAGES.number })
    expect(validateVatRegime('reduit', 'FR32123456789')).toEqual({ vatRegime: VAT_REGIME_MESSAGES.vatRegime })
  })
  it('defaults to the flat-rate refund without a VAT number', () => {
    expect(defaultVatRegime('')).toBe('flat')
    expect(defaultVatRegime('FR32123456789')).toBe('normal')
  })
})
