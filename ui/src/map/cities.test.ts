import { describe, expect, it } from 'vitest'
import {
  CITIES,
  cityLabel,
  departmentOfPostcode,
  distanceKm,
  editDistance,
  nameScore,
  normalizeText,
  placeOfAddress,
  postalCodesOf,
  searchCities,
  townSuggestions,
  withinRadius,
} from './cities'

const names = (query: string, limit?: number) => searchCities(query, limit).map((m) => m.city.name)

describe('normalizeText', () => {
  it('drops accents, case and punctuation, and reads st/ste as saint/sainte', () => {
    expect(normalizeText('  Saint-Étienne ')).toBe('saint etienne')
    expect(normalizeText('St-Étienne')).toBe('saint etienne')
    expect(normalizeText("L'Haÿ-les-Roses")).toBe('l hay les roses')
    expect(normalizeText('Ste Maxime')).toBe('sainte maxime')
    expect(normalizeText('Œuilly')).toBe('oeuilly')
  })
})

describe('postal codes and departments', () => {
  it('reads the reference codes as 5 digits', () => {
    expect(postalCodesOf(1000)).toEqual(['01000'])
    expect(postalCodesOf('06000-06100')).toEqual(['06000', '06100'])
    expect(postalCodesOf('')).toEqual([])
    expect(postalCodesOf(0)).toEqual([])
  })

  it('gives the department of a metropolitan postal code', () => {
    expect(departmentOfPostcode('74230')).toBe('74')
    expect(departmentOfPostcode('01000')).toBe('01')
    expect(departmentOfPostcode('20000')).toBe('2A')
    expect(departmentOfPostcode('20137')).toBe('2A')
    expect(departmentOfPostcode('20200')).toBe('2B')
    expect(departmentOfPostcode('00999')).toBe('')
    expect(departmentOfPostcode('97400')).toBe('')
    expect(departmentOfPostcode('7400')).toBe('')
    expect(departmentOfPostcode('74a00')).toBe('')
  })
})

describe('the reference', () => {
  it('holds every town with a position, most populous first', () => {
    expect(CITIES.length).toBe(286)
    expect(CITIES[0].name).toBe('Paris')
    const annecy = CITIES.find((c) => c.name === 'Annecy')!
    expect(annecy.department).toBe('74')
    expect(annecy.postalCodes).toContain('74000')
    expect(annecy.lonLat[0]).toBeCloseTo(6.1257, 3)
  })
})

describe('fuzzy matching', () => {
  it('counts edits, swaps included', () => {
    expect(editDistance('annecy', 'annecy')).toBe(0)
    expect(editDistance('anecy', 'annecy')).toBe(1)
    expect(editDistance('anencyx', 'annecy')).toBe(2)
    expect(editDistance('', 'abc')).toBe(3)
  })

  it('ranks equal, start, word start, inside, then typos', () => {
    expect(nameScore('annecy', 'annecy')).toBe(0)
    expect(nameScore('anne', 'annecy')).toBe(1)
    expect(nameScore('etienne', 'saint etienne')).toBe(2)
    expect(nameScore('necy', 'annecy')).toBe(3)
    expect(nameScore('anecy', 'annecy')).toBe(4)
    expect(nameScore('xyz', 'annecy')).toBeNull()
    // Short queries get no typo: "ane" is not "ann…".
    expect(nameScore('anx', 'annecy')).toBeNull()
  })
})

describe('searchCities', () => {
  it('finds a town whatever its accents, case and a typo', () => {
    expect(names('Annecy')[0]).toBe('Annecy')
    expect(names('ANNECY')[0]).toBe('Annecy')
    expect(names('anecy')[0]).toBe('Annecy')
    expect(names('st etienne')[0]).toBe('Saint-Étienne')
    expect(names('saint-etiene')[0]).toBe('Saint-Étienne')
    expect(names('besancon')[0]).toBe('Besançon')
  })

  it('finds a town from its postal code or the start of one', () => {
    const [annecy] = searchCities('74000')
    expect(annecy.city.name).toBe('Annecy')
    expect(annecy.postalCode).toBe('74000')
    expect(annecy.approximate).toBe(false)
    // A second code of the same commune.
    expect(searchCities('74370')[0].city.name).toBe('Annecy')
    expect(searchCities('74370')[0].postalCode).toBe('74370')
    expect(names('741')).toEqual(['Annemasse'])
    expect(names('74')).toEqual(expect.arrayContaining(['Annecy', 'Annemasse', 'Thonon-les-Bains']))
  })

  it('takes a postal code followed by a name', () => {
    expect(names('74000 Annecy')).toEqual(['Annecy'])
    expect(names('13 marseille')[0]).toBe('Marseille')
  })

  it('answers the main towns of the department, marked approximate, for an unknown postal code', () => {
    const matches = searchCities('74230')
    expect(matches.length).toBeGreaterThan(0)
    expect(matches.every((m) => m.approximate)).toBe(true)
    expect(matches[0].city.name).toBe('Annecy')
    expect(searchCities('99999')).toEqual([])
  })

  it('answers nothing for nothing, and at most the limit', () => {
    expect(searchCities('   ')).toEqual([])
    expect(searchCities('zzzzzzzz')).toEqual([])
    expect(searchCities('saint', 3)).toHaveLength(3)
  })

  it('labels a match with its postal code', () => {
    expect(cityLabel(searchCities('74000')[0])).toBe('Annecy (74000)')
  })
})

describe('placeOfAddress', () => {
  it('places on the town typed when the reference has it', () => {
    const place = placeOfAddress('74000', 'annecy')!
    expect(place.city.name).toBe('Annecy')
    expect(place.how).toBe('town')
    expect(placeOfAddress('', 'Annecy')).toMatchObject({ how: 'town' })
    expect(placeOfAddress('', 'anecy')).toMatchObject({ how: 'town', city: { name: 'Annecy' } })
  })

  it('places near the town of the postal code, else the main town of its department', () => {
    expect(placeOfAddress('74370', 'Argonay')).toMatchObject({ how: 'postcode', city: { name: 'Annecy' } })
    expect(placeOfAddress('74000', '')).toMatchObject({ how: 'postcode', city: { name: 'Annecy' } })
    expect(placeOfAddress('74230', 'Thônes')).toMatchObject({ how: 'department', city: { name: 'Annecy' } })
    expect(placeOfAddress('74230', '')).toMatchObject({ how: 'department', city: { department: '74' } })
    // A town of the department close to the name typed wins over the most populous.
    expect(placeOfAddress('74290', 'Anemasse')).toMatchObject({ how: 'department', city: { name: 'Annemasse' } })
  })

  it('does not take a namesake of another department', () => {
    const place = placeOfAddress('74000', 'Paris')
    expect(place?.city.department).toBe('74')
  })

  it('gives nothing without a usable postal code or town', () => {
    expect(placeOfAddress('', '')).toBeNull()
    expect(placeOfAddress('99999', 'Nulle part')).toBeNull()
    expect(placeOfAddress('12', 'Nulle part')).toBeNull()
    // A malformed postal code is the form's business: the town still places.
    expect(placeOfAddress('12', 'Annecy')).toMatchObject({ how: 'town', city: { name: 'Annecy' } })
  })
})

describe('townSuggestions', () => {
  it('suggests the towns of the postal code, then names close to what was typed in its department', () => {
    expect(townSuggestions('74000', '')).toEqual(['Annecy'])
    expect(townSuggestions('74100', 'ann')).toEqual(['Annemasse', 'Annecy'])
    expect(townSuggestions('', 'anecy')).toEqual(['Annecy'])
    // Another department's namesake is not suggested.
    expect(townSuggestions('13000', 'annecy')).toEqual([])
    expect(townSuggestions('', '')).toEqual([])
  })
})

describe('distances', () => {
  it('computes great-circle distances', () => {
    // Annecy – Thonon-les-Bains is about 55 km as the crow flies.
    expect(distanceKm([6.12565, 45.90878], [6.47985, 46.37049])).toBeGreaterThan(50)
    expect(distanceKm([6.12565, 45.90878], [6.47985, 46.37049])).toBeLessThan(60)
    expect(distanceKm([2.35, 48.85], [2.35, 48.85])).toBe(0)
  })

  it('keeps the items within the radius, nearest first', () => {
    const shops = [
      { name: 'Loin', at: [6.48, 46.37] as [number, number] },
      { name: 'Près', at: [6.13, 45.91] as [number, number] },
      { name: 'Sans position', at: null },
      { name: 'Thônes', at: [6.325, 45.8817] as [number, number] },
    ]
    const near = withinRadius(shops, (s) => s.at, [6.12565, 45.90878], 30)
    expect(near.map((n) => n.item.name)).toEqual(['Près', 'Thônes'])
    expect(near[1].km).toBeGreaterThan(15)
    expect(near[1].km).toBeLessThan(16.5)
  })
})
