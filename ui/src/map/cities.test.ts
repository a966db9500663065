import { describe, expect, it } from 'vitest'
import { CITIES, cityLabel, distanceKm, normalizeText, postalCodesOf, withinRadius } from './cities'

describe('normalizeText', () => {
  it('drops accents, case and punctuation, and reads st/ste as saint/sainte', () => {
    expect(normalizeText('  Saint-Étienne ')).toBe('saint etienne')
    expect(normalizeText('St-Étienne')).toBe('saint etienne')
    expect(normalizeText("L'Haÿ-les-Roses")).toBe('l hay les roses')
    expect(normalizeText('Ste Maxime')).toBe('sainte maxime')
    expect(normalizeText('Œuilly')).toBe('oeuilly')
  })
})

describe('postal codes', () => {
  it('reads the reference codes as 5 digits', () => {
    expect(postalCodesOf(1000)).toEqual(['01000'])
    expect(postalCodesOf('06000-06100')).toEqual(['06000', '06100'])
    expect(postalCodesOf('')).toEqual([])
    expect(postalCodesOf(0)).toEqual([])
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

describe('labels', () => {
  it('labels a match with its postal code, else its department', () => {
    const annecy = CITIES.find((c) => c.name === 'Annecy')!
    expect(cityLabel({ city: annecy, postalCode: '74000' })).toBe('Annecy (74000)')
    expect(cityLabel({ city: annecy, postalCode: '' })).toBe('Annecy (74)')
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
