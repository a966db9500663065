import { describe, expect, it } from 'vitest'
import { frenchVat, frenchVatKey, isSirenValid, isSiretValid, isVatValid, vatMatchesSiret } from './identifiers'

// The same cases as core/accounts/identifiers_test.go.
describe('isSirenValid', () => {
  it.each([
    ['732829320', true],
    ['732 829 320', true],
    ['356000000', true], // La Poste
    ['732829321', false],
    ['123456789', false],
    ['111111111', false],
    ['73282932', false],
    ['7328293200', false],
    ['73282932A', false],
    ['', false],
  ])('%j → %s', (siren, ok) => {
    expect(isSirenValid(siren)).toBe(ok)
  })
})

describe('isSiretValid', () => {
  it.each([
    ['a valid SIRET', '73282932000074', true],
    ['with spaces', '732 829 320 00074', true],
    ['its key wrong', '73282932000075', false],
    ["issue 32's", '11111111111111', false],
    ['Luhn-valid, on an invalid SIREN', '12345678900015', false],
    ['13 digits', '7328293200007', false],
    ['15 digits', '732829320000740', false],
    ['a letter', '7328293200007A', false],
    ['empty', '', false],
    ["La Poste's head office, by Luhn", '35600000000048', true],
    ['La Poste, digits summing to a multiple of 5', '35600000049837', true],
    ['La Poste, neither rule', '35600000000011', false],
    ['not La Poste, digits summing to a multiple of 5', '73282932000077', false],
  ])('%s: %j → %s', (_, siret, ok) => {
    expect(isSiretValid(siret)).toBe(ok)
  })
})

describe('French VAT key', () => {
  it('is (12 + 3 × (SIREN mod 97)) mod 97 on two digits', () => {
    expect(frenchVatKey('732829320')).toBe('44')
    expect(frenchVat('753218643')).toBe('FR07753218643')
    expect(frenchVat('123456789')).toBe('')
  })
})

describe('isVatValid and vatMatchesSiret', () => {
  it.each([
    ['French, alone', 'FR44732829320', '', true],
    ['French, spaces and lower case', 'fr 44 732 829 320', '', true],
    ['French, with its SIRET', 'FR44732829320', '73282932000074', true],
    ["French, another company's SIRET", 'FR44732829320', '84261530400016', false],
    ['French, with an invalid SIRET (not compared)', 'FR44732829320', '11111111111111', true],
    ['French, wrong key (issue 32)', 'FR00732829320', '', false],
    ['French, wrong key on an invalid SIREN (issue 32)', 'FR00487231556', '', false],
    ['French, key right but SIREN invalid (issue 32)', 'FR31111111111', '', false],
    ['French, letter key', 'FRXA732829320', '', false],
    ['French, too short', 'FR4473282932', '', false],
    ['French, too long', 'FR447328293201', '', false],
    ['La Poste', 'FR39356000000', '35600000049837', true],
    ['German, format only', 'DE123456789', '73282932000074', true],
    ['Belgian, format only', 'BE0123456789', '', true],
    ['no country', '12345678901', '', false],
    ['empty', '', '', false],
  ])('%s: %j with %j → %s', (_, vat, siret, ok) => {
    expect(isVatValid(vat) && vatMatchesSiret(vat, siret)).toBe(ok)
  })
})
