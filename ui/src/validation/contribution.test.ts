import { describe, expect, it } from 'vitest'
import { CONTRIBUTION_MESSAGES as M, parseAmount, validateContribution } from './contribution'

describe('validateContribution', () => {
  it.each([
    ['', M.required],
    ['   ', M.required],
    ['0', M.min],
    ['9,99', M.min],
    ['-20', M.min],
    ['10,001', M.format],
    ['dix', M.format],
    ['10,5,5', M.format],
    ['1e3', M.format],
    ['10000,01', M.max],
    ['250000', M.max],
    // Issue 13: the decimal rule, checked after the maximum as the daemon does.
    ['9999,995', M.format],
    ['2,505', M.format],
    ['10000,001', M.max],
    ['-20,001', M.format],
  ])('%j → %s', (amount, message) => {
    expect(validateContribution({ amount })).toEqual({ amount: message })
  })

  it.each(['10', '10,00', '25,5', '25.50', ' 42 ', '1 000', '100 €', '10000', '9999,99', '12,500'])(
    'accepts %j',
    (amount) => {
      expect(validateContribution({ amount })).toEqual({})
    },
  )

  it('has the daemon messages', () => {
    // core/rewards: MsgAmountRequired, MsgAmountFormat, MsgAmountMin, MsgAmountMax.
    expect(M).toEqual({
      required: 'Veuillez saisir le montant de votre contribution mensuelle.',
      format: 'Veuillez saisir un montant en euros, avec deux décimales au plus.',
      min: 'La contribution minimale est de 10 € par mois, pour couvrir les frais bancaires.',
      max: 'La contribution ne peut pas dépasser 10 000 € par mois.',
    })
  })
})

describe('parseAmount', () => {
  it.each([
    ['25,5', 25.5],
    ['1 000,25', 1000.25],
    ['100 €', 100],
    ['12.345', null],
    ['', null],
  ])('%j → %s', (text, want) => expect(parseAmount(text)).toBe(want))
})
