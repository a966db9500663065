import { describe, expect, it } from 'vitest'
import { type LedgerField, ledgerMessage, validateLedger } from './ledger'

describe('the accounts of the FEC', () => {
  it('says each refusal as the daemon does', () => {
    expect(ledgerMessage('customers')).toBe(
      'Le compte clients doit être un numéro de 3 à 10 chiffres commençant par 411.',
    )
    expect(ledgerMessage('discountsGiven')).toBe(
      "Le compte d'escomptes accordés doit être un numéro de 3 à 10 chiffres commençant par 665.",
    )
    expect(ledgerMessage('cash')).toBe('Le compte de caisse doit être un numéro de 3 à 10 chiffres commençant par 53.')
  })

  const cases: [LedgerField, string, boolean][] = [
    ['customers', '', true],
    ['customers', '411', true],
    ['customers', ' 4110000 ', true],
    ['customers', '4110000000', true],
    ['customers', '41100000000', false],
    ['customers', '401', false],
    ['customers', '411A', false],
    ['sales', '706', true],
    ['sales', '7011', true],
    ['sales', '70', false],
    ['sales', '601', false],
    ['vatCollected', '445710', true],
    ['vatCollected', '44566', false],
    ['discountsGiven', '765', false],
    ['suppliers', '401000', true],
    ['suppliers', '411', false],
    ['purchases', '6071', true],
    ['purchases', '701', false],
    ['vatDeductible', '44571', false],
    ['discountsReceived', '765', true],
    ['bank', '5121', true],
    ['bank', '530', false],
    ['cash', '531', true],
    ['cash', '５３０', false],
    ['cash', '-530', false],
  ]
  it.each(cases)('%s %j valid: %s', (field, value, ok) => {
    expect(validateLedger({ [field]: value })).toEqual(ok ? {} : { [field]: ledgerMessage(field) })
  })
})
