import { describe, expect, it } from 'vitest'
import {
  ADDRESS_MESSAGES as M,
  addressErrors,
  isAddressComplete,
  isPostcodeValid,
  joinAddress,
  postalLine,
  postalLineError,
  splitAddress,
} from './address'

describe('splitAddress', () => {
  it('reads the postal line wherever it is (the demo keeps it in the second line)', () => {
    expect(splitAddress(['12 rue Sommeiller', '74000 Annecy', ''])).toEqual({
      street: '12 rue Sommeiller',
      complement: '',
      postcode: '74000',
      town: 'Annecy',
    })
    expect(splitAddress(['Lieu-dit Les Mouilles', 'Bâtiment B', '74570 Thorens-Glières'])).toEqual({
      street: 'Lieu-dit Les Mouilles',
      complement: 'Bâtiment B',
      postcode: '74570',
      town: 'Thorens-Glières',
    })
  })

  it('takes the last postal line, as core/address does', () => {
    expect(splitAddress(['74000 Annecy', '', '74230 Thônes'])).toMatchObject({
      street: '74000 Annecy',
      postcode: '74230',
      town: 'Thônes',
    })
  })

  it('keeps an older third line without postal code as the town', () => {
    expect(splitAddress(['3 place du marché', '', 'Annecy'])).toEqual({
      street: '3 place du marché',
      complement: '',
      postcode: '',
      town: 'Annecy',
    })
    expect(splitAddress(['', '', ''])).toEqual({ street: '', complement: '', postcode: '', town: '' })
  })
})

describe('joinAddress and postalLine', () => {
  it('stores the postal code and town in the third line', () => {
    expect(joinAddress({ street: ' 3 place ', complement: '', postcode: '74 230', town: ' Thônes ' })).toEqual([
      '3 place',
      '',
      '74230 Thônes',
    ])
    expect(postalLine('', 'Annecy')).toBe('Annecy')
    expect(postalLine('', '')).toBe('')
  })

  it('round-trips what it stores', () => {
    const parts = { street: '1 rue', complement: 'BP 12', postcode: '74000', town: 'Annecy' }
    expect(splitAddress(joinAddress(parts))).toEqual(parts)
  })
})

describe('postal code rules', () => {
  it.each([
    ['74000', true],
    ['74 000', true],
    ['01000', true],
    ['00100', false],
    ['7400', false],
    ['740000', false],
    ['74a00', false],
    ['', false],
  ])('%j valid=%s', (code, ok) => {
    expect(isPostcodeValid(code)).toBe(ok)
  })

  it.each([
    ['', undefined],
    ['Annecy', undefined],
    ['74000 Annecy', undefined],
    ['74000  Annecy Cedex', undefined],
    ['74000', { field: 'town', message: M.town }],
    ['7400 Annecy', { field: 'postcode', message: M.postcode }],
    ['74000Annecy', { field: 'postcode', message: M.postcode }],
    ['00999 Nulle part', { field: 'postcode', message: M.postcode }],
  ])('stored line %j', (line, expected) => {
    expect(postalLineError(line)).toEqual(expected)
  })

  it('tells which field is at fault', () => {
    expect(addressErrors('', '')).toEqual({})
    expect(addressErrors('74000', 'Annecy')).toEqual({})
    expect(addressErrors('7400', 'Annecy')).toEqual({ postcode: M.postcode })
    expect(addressErrors('74000', '  ')).toEqual({ town: M.town })
    expect(addressErrors('', 'Annecy')).toEqual({})
    expect(addressErrors('', '7400 Annecy')).toEqual({ town: M.postcode })
  })

  it('calls an address complete with a street, a postal code and a town', () => {
    expect(isAddressComplete({ street: '1 rue', complement: '', postcode: '74000', town: 'Annecy' })).toBe(true)
    expect(isAddressComplete({ street: '', complement: '', postcode: '74000', town: 'Annecy' })).toBe(false)
    expect(isAddressComplete({ street: '1 rue', complement: '', postcode: '', town: 'Annecy' })).toBe(false)
  })
})
