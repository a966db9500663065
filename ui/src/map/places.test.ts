import { describe, expect, it } from 'vitest'
import { ALLEVES, ANNECY, ANNECY_LE_VIEUX, MANIGOD, PARIS_15, SERRAVAL, THONES, near } from '../test/places'
import { cityLabel } from './cities'
import { type PlaceMatch, addressPlace, placeHint, placeMatchOf, placeValue, townOf } from './places'

const read = (...ps: object[]) => ps.map(placeMatchOf).filter((m): m is PlaceMatch => m !== null)

describe('placeMatchOf', () => {
  it('reads a place of the answer as the map reads a town', () => {
    const [m] = read(THONES)
    expect(m.city).toEqual({
      id: '74280',
      name: 'Thônes',
      department: '74',
      postalCodes: ['74230'],
      population: 6654,
      lonLat: [6.32572, 45.88123],
      key: 'thones',
    })
    expect(m).toMatchObject({ postalCode: '74230', approximate: false, kind: 'commune', commune: '', position: 'own' })
    expect(cityLabel(m)).toBe('Thônes (74230)')
    expect(placeValue(m)).toBe('74280|commune|74230')
  })

  it('leaves out what does not have the documented shape', () => {
    for (const bad of [
      null,
      'Thônes',
      { ...THONES, latitude: '45.9' },
      { ...THONES, longitude: Number.NaN },
      { ...THONES, kind: 'ville' },
      { ...THONES, position: 'exact' },
      { ...THONES, postalCodes: [74230] },
      { ...THONES, name: undefined },
    ]) {
      expect(placeMatchOf(bad)).toBeNull()
    }
  })
})

describe('hints and towns', () => {
  it('says the commune of a former commune and a neighbouring code', () => {
    const [thones, vieux, cedex] = read(THONES, ANNECY_LE_VIEUX, near(ANNECY))
    expect(placeHint(thones)).toBe('')
    expect(placeHint(vieux)).toBe("commune d'Annecy")
    expect(placeHint(cedex)).toBe('code postal voisin')
  })

  it('writes the city for an arrondissement, the name otherwise', () => {
    const [paris, vieux] = read(PARIS_15, ANNECY_LE_VIEUX)
    expect(townOf(paris)).toBe('Paris')
    expect(townOf(vieux)).toBe('Annecy-le-Vieux')
  })
})

describe('addressPlace', () => {
  const code74230 = read(THONES, MANIGOD, SERRAVAL)

  it('places on the town typed, whatever its accents and case', () => {
    expect(addressPlace(read(SERRAVAL), '74230', 'SERRAVAL')).toMatchObject({
      how: 'town',
      place: { postalCode: '74230' },
    })
    expect(addressPlace(code74230, '74230', 'thones')?.place.city.name).toBe('Thônes')
    expect(addressPlace(code74230, '74 230', 'Manigod')?.place.city.name).toBe('Manigod')
    expect(addressPlace(read(PARIS_15), '75015', 'Paris')).toMatchObject({
      how: 'town',
      place: { kind: 'arrondissement' },
    })
    expect(addressPlace(read(ANNECY_LE_VIEUX, ANNECY), '74000', 'Annecy-le-Vieux')?.place.kind).toBe('former')
  })

  it('places on the first commune of the postal code when the town is not one of its', () => {
    expect(addressPlace(code74230, '74230', 'Annecy')).toMatchObject({
      how: 'postcode',
      place: { city: { name: 'Thônes' } },
    })
    expect(addressPlace(code74230, '74230', '')).toMatchObject({ how: 'postcode' })
  })

  it('does not take a namesake of another postal code', () => {
    expect(addressPlace(read(ANNECY), '74230', 'Annecy')).toBeNull()
  })

  it('places near a code of no commune (CEDEX), said so', () => {
    expect(addressPlace(read(near(ANNECY)), '74011', 'Annecy Cedex')).toMatchObject({ how: 'near' })
  })

  it('without a postal code takes the best match of the town', () => {
    expect(addressPlace(read(ALLEVES), '', 'alleves')).toMatchObject({ how: 'town', place: { position: 'postcode' } })
    expect(addressPlace([], '', 'nulle part')).toBeNull()
    expect(addressPlace(read(THONES), '', '')).toBeNull()
  })
})
