import { describe, expect, it } from 'vitest'
import type { ProfileField } from '../types'
import { TOO_LONG_MESSAGE } from './common'
import { IDENTIFIER_MESSAGES } from './identifiers'
import {
  PROFILE_MESSAGES as M,
  changesBank,
  ibanChecksumOk,
  isTvaValid,
  validateDeliveryDays,
  validateProfile,
  validateProfileField,
} from './profile'

type Row = [value: string, valid: boolean]

// One table per rule: [input, expected validity]. Every rule accepts "" and blanks.
const tables: Record<string, Row[]> = {
  capital: [
    ['', true],
    ['0', true],
    ['15000', true],
    [' 15000 ', true],
    ['15 000', true], // spaces are removed
    ['15000.50', false],
    ['-100', false],
    ['mille', false],
  ],
  bic: [
    ['', true],
    ['BNPAFRPPXXX', true],
    ['agrifrpp882', true],
    ['CCBPFRPPMTG', true],
    ['BNPAFRPP', false],
    ['BNP1FRPPXXX', false],
    ['BNPAF1PPXXX', false],
    ['BNPAFRPPXXXX', false],
    ['BNPA FRPP XXX', true], // spaces are removed
    ['BNPA-FRPP-XXX', false],
  ],
  ape: [
    ['', true],
    ['0113Z', true],
    ['4721z', true],
    ['113Z', false],
    ['01130', false],
    ['01.13Z', false],
    ['0113ZZ', false],
    ['0113 Z', true], // spaces are removed
  ],
  iban: [
    ['', true],
    ['FR7630006000011234567890189', true],
    ['FR76 3000 6000 0112 3456 7890 189', true],
    ['fr7630006000011234567890189', true],
    ['DE89370400440532013000', true],
    ['GB82WEST12345698765432', true],
    ['FR7630006000011234567890188', false], // checksum
    ['FR0030006000011234567890189', false], // checksum
    ['FR76300060000112', false], // too short
    ['7630006000011234567890189FR', false], // shape
    ['FR76-3000-6000-0112-3456-7890-189', false], // dashes are not removed
    ['FR7630006000011234567890189123456789', false], // too long
  ],
  siret: [
    ['', true],
    ['73282932000074', true],
    ['732 829 320 00074', true],
    ['73282932000075', false], // the Luhn key
    ['11111111111111', false], // issue 32
    ['12345678900015', false], // Luhn-valid, on an invalid SIREN
    ['35600000049837', true], // La Poste
    ['7328293200007', false],
    ['732829320000745', false],
    ['7328293200007A', false],
    ['732.829.320.00074', false],
  ],
  tel: [
    ['', true],
    ['0612345678', true],
    ['06 12 34 56 78', true],
    ['06.12.34.56.78', true],
    ['061234567', false],
    ['06123456789', false],
    ['+33612345678', false],
    ['06-12-34-56-78', false],
  ],
  latitude: [
    ['', true],
    ['45.9016', true],
    ['-45.9016', true],
    ['45. 9016', true], // spaces are removed
    ['90', true],
    ['-90', true],
    ['0', true],
    ['45.', true],
    ['90.0001', false],
    ['-91', false],
    ['45.90.16', false],
    ['45,9016', false],
    ['.', false],
    ['-', false],
    ['+45', false],
    ['4-5', false],
    ['N45', false],
  ],
  longitude: [
    ['', true],
    ['6.1213', true],
    ['-1.5536', true], // western France
    ['180', true],
    ['-180', true],
    ['180.5', false],
    ['-181', false],
    ['6.12.13', false],
    ['6,1213', false],
    ['E6', false],
  ],
  tvaintracom: [
    ['', true],
    // French: FR, the key of the SIREN, the SIREN (PRODUCT §5 "Identifiers").
    ['FR44732829320', true],
    ['FR 44 732 829 320', true],
    ['fr44732829320', true],
    ['FR00487231556', false], // issue 32: the key wrong
    ['FR31111111111', false], // issue 32: no SIREN
    ['FR12345678901', false], // the key wrong
    ['FRXA732829320', false], // a letter key
    ['FR12', false],
    // Another country's: the format rule.
    ['DEAB345678901', true], // DEAB is a 4-letter prefix
    ['DE1A345678901', true], // one letter after the prefix
    ['DE1A34567890B', true], // two letters after the prefix
    ['DE1A3456789BC', false], // three letters after the prefix
    ['ESX1234567X', true],
    ['ATU12345678', true],
    ['BE0123-456_789', true],
    ['DE12', true], // 4 characters
    ['DEAB', false], // no digit after the prefix
    ['DEAB-_', false], // no digit after the prefix
    ['DE1', false], // under 4 characters
    ['F12345678901', false], // a single letter
    ['12345678901', false], // no letter
    ['DE123456789012345678901', false], // over 20
    ['DE12345678901234567X', true], // exactly 20
    ['DE12.345678901', false], // dots are not allowed
  ],
}

describe('validateProfileField', () => {
  for (const [field, rows] of Object.entries(tables)) {
    describe(field, () => {
      it.each(rows)('%j valid=%s', (value, valid) => {
        const message = validateProfileField(field as ProfileField, value)
        expect(message).toBe(valid ? undefined : M[field as keyof typeof M])
      })
    })
  }

  it.each([
    'addressLine1',
    'addressLine2',
    'addressLine3',
    'certification',
    'legal',
    'billingAddressLine1',
    'billingAddressLine3',
  ] as const)('free text field %s accepts anything up to 500 characters', (field) => {
    expect(validateProfileField(field, "n'importe quoi 123 !")).toBeUndefined()
    expect(validateProfileField(field, '')).toBeUndefined()
    expect(validateProfileField(field, 'é'.repeat(500))).toBeUndefined()
    expect(validateProfileField(field, 'é'.repeat(501))).toBe(TOO_LONG_MESSAGE)
  })

  it.each([
    ['', M.name],
    ['   ', M.name],
    ['Ferme des Saules', undefined],
    ['x'.repeat(501), TOO_LONG_MESSAGE],
  ])('name %j', (value, expected) => {
    expect(validateProfileField('name', value)).toBe(expected)
  })
})

describe('ibanChecksumOk', () => {
  it.each([
    ['FR7630006000011234567890189', true],
    ['BE68539007547034', true],
    ['NL91ABNA0417164300', true],
    ['NL91ABNA0417164301', false],
    ['FR76300060000112345678901!9', false],
  ])('%s → %s', (iban, ok) => {
    expect(ibanChecksumOk(iban)).toBe(ok)
  })
})

describe('isTvaValid', () => {
  it('ignores spaces before counting the length', () => {
    expect(isTvaValid('D E 1 2')).toBe(true)
    expect(isTvaValid('D E 1')).toBe(false)
  })
})

describe('validateDeliveryDays', () => {
  it.each([
    [[false, false, false, false, false, false, false], M.defaultDeliveryDays],
    [[], M.defaultDeliveryDays],
    [undefined, M.defaultDeliveryDays],
    [[true, false, false, false, false, false, false], undefined],
    [[false, false, false, false, false, false, true], undefined],
    [[true, false, false], M.defaultDeliveryDays], // not 7 days
  ])('%j', (days, expected) => {
    expect(validateDeliveryDays(days)).toBe(expected)
  })
})

describe('validateProfile', () => {
  const producer = {
    name: 'Ferme des Saules',
    tel: '06 12 34 56 78',
    iban: 'FR76 3000 6000 0112 3456 7890 189',
    bic: 'BNPAFRPPXXX',
    defaultDeliveryDays: [true, false, true, false, false, false, false],
  }

  it('accepts a valid producer', () => {
    expect(validateProfile(producer, 'producer')).toEqual({})
  })

  it('requires a delivery day from producers only', () => {
    const noDays = { ...producer, defaultDeliveryDays: [false, false, false, false, false, false, false] }
    expect(validateProfile(noDays, 'producer')).toEqual({ defaultDeliveryDays: M.defaultDeliveryDays })
    expect(validateProfile(noDays, 'distributor')).toEqual({})
  })

  it('reports every invalid field', () => {
    const errors = validateProfile(
      {
        capital: 'x',
        bic: 'x',
        ape: 'x',
        iban: 'x',
        siret: 'x',
        tel: 'x',
        latitude: 'x',
        longitude: 'x',
        tvaintracom: 'x',
      },
      'distributor',
    )
    expect(errors).toEqual({
      capital: M.capital,
      bic: M.bic,
      ape: M.ape,
      iban: M.iban,
      siret: M.siret,
      tel: M.tel,
      latitude: M.latitude,
      longitude: M.longitude,
      tvaintracom: M.tvaintracom,
    })
  })

  it('uses the PRODUCT texts', () => {
    expect(M).toEqual({
      name: 'Le nom de votre entreprise est requis.',
      defaultDeliveryDays:
        'Vous devez choisir au moins un jour de livraison (vous pourrez corriger votre choix à tout moment si nécessaire).',
      capital: 'Le capital saisi doit être un nombre.',
      bic: 'Veuillez saisir un code BIC valide (LLLLLLXXXXX, L : lettre - X : chiffre ou lettre).',
      ape: 'Veuillez saisir un code APE valide (CCCCL, C : Chiffre - L : lettre).',
      iban: 'Veuillez saisir un code IBAN valide.',
      siret: 'Veuillez saisir un code SIRET valide.',
      tel: 'Veuillez saisir un n° de téléphone valide (10 chiffres).',
      latitude: 'Veuillez saisir une latitude valide',
      longitude: 'Veuillez saisir une longitude valide',
      tvaintracom:
        'Veuillez saisir un n° de TVA intra-communautaire valide ou laisser ce champ vide si vous êtes exempté de TVA.',
      currentPassword: "Pour modifier l'IBAN ou le BIC, saisissez votre mot de passe actuel.",
    })
    expect(IDENTIFIER_MESSAGES.vatSiret).toBe(
      'Le n° de TVA intracommunautaire et le SIRET ne désignent pas la même entreprise : le n° de TVA doit se terminer par le SIREN (les 9 premiers chiffres du SIRET).',
    )
  })
})

// The rules on what changes, as the daemon's (core/accounts
// TestProfileIdentifiersAgainstTheAccount, TestBankChangeNeedsThePassword).
describe('validateProfile against the stored values', () => {
  const stored = {
    name: 'Ferme des Saules',
    siret: '11111111111111',
    tvaintracom: 'FR00732829320',
    iban: 'FR7630006000011234567890189',
    bic: 'AGRIFRPP882',
    defaultDeliveryDays: [true, false, false, false, false, false, false],
  }

  it.each([
    ['identifiers stored invalid, left as they are: no error', {}, {}],
    ['the stored SIRET retyped with spaces: no error', { siret: '111 111 111 11111' }, {}],
    ['a new invalid SIRET', { siret: '11111111111112' }, { siret: M.siret }],
    ['a new VAT number, its key wrong', { tvaintracom: 'FR01732829320' }, { tvaintracom: M.tvaintracom }],
    ['a valid SIRET, the stored VAT number invalid: no error', { siret: '84261530400016' }, {}],
    [
      'a valid VAT number of another company than the SIRET: on the VAT number',
      { siret: '84261530400016', tvaintracom: 'FR44732829320' },
      { tvaintracom: IDENTIFIER_MESSAGES.vatSiret },
    ],
    ['both of one company', { siret: '73282932000074', tvaintracom: 'fr 44 732 829 320' }, {}],
    ['a foreign VAT number: never compared', { siret: '73282932000074', tvaintracom: 'DE123456789' }, {}],
  ])('%s', (_, change, errors) => {
    expect(validateProfile({ ...stored, ...change }, 'producer', stored)).toEqual(errors)
  })

  it('puts the SIREN mismatch on the SIRET when only it changed', () => {
    const valid = { ...stored, siret: '73282932000074', tvaintracom: 'FR44732829320' }
    expect(validateProfile({ ...valid, siret: '84261530400016' }, 'producer', valid)).toEqual({
      siret: IDENTIFIER_MESSAGES.vatSiret,
    })
  })

  it('asks the current password when the IBAN or BIC changes, set, replaced or cleared', () => {
    const need = { currentPassword: M.currentPassword }
    expect(validateProfile({ ...stored, iban: 'FR7610107001011234567890129' }, 'producer', stored)).toEqual(need)
    expect(validateProfile({ ...stored, iban: '' }, 'producer', stored)).toEqual(need)
    expect(validateProfile({ ...stored, bic: 'CCBPFRPPANN' }, 'producer', stored)).toEqual(need)
    expect(validateProfile({ ...stored, iban: '', bic: '' }, 'producer', { ...stored, iban: '', bic: '' })).toEqual({})
    expect(
      validateProfile(
        { ...stored, iban: 'FR7610107001011234567890129', currentPassword: 'motdepasse1' },
        'producer',
        stored,
      ),
    ).toEqual({})
    // The same IBAN typed otherwise is no change.
    expect(validateProfile({ ...stored, iban: 'fr76 3000 6000 0112 3456 7890 189' }, 'producer', stored)).toEqual({})
    expect(changesBank({ ...stored, iban: 'fr76 3000 6000 0112 3456 7890 189' }, stored)).toBe(false)
    expect(changesBank({ ...stored, iban: '' }, { ...stored, iban: '' })).toBe(false)
    expect(changesBank({ iban: 'FR7610107001011234567890129' }, { iban: '' })).toBe(true)
  })
})
