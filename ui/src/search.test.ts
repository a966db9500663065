import { describe, expect, it } from 'vitest'
import { searchByName, searchKey } from './search'
import { productOptions } from './planner/productOptions'
import { isWholeUnit, unitAfter, unitLabel } from './units'
import type { Family, Product } from './types'

const names = ['Œufs de poule plein air', 'Œuf de caille', 'Comté', 'Tomate cerise', 'Pêche', 'Lait cru entier']

describe('product search', () => {
  it('writes ligatures out and sets accents aside', () => {
    expect(searchKey('Œufs de poule')).toBe('oeufs de poule')
    expect(searchKey('  Pêche-plate ')).toBe('peche plate')
  })

  it('finds eggs as "oeufs", "œuf" or "Oeuf", a cheese without its accent', () => {
    for (const q of ['oeufs', 'œuf', 'Oeuf', 'OEUFS']) {
      expect(searchByName(names, (n) => n, q)).toEqual(['Œufs de poule plein air', 'Œuf de caille'])
    }
    expect(searchByName(names, (n) => n, 'comte')).toEqual(['Comté'])
    expect(searchByName(names, (n) => n, 'peche')).toEqual(['Pêche'])
    expect(searchByName(names, (n) => n, '')).toEqual(names)
    expect(searchByName(names, (n) => n, 'durian')).toEqual([])
  })
})

describe('product options', () => {
  const families: Family[] = [
    { _id: 'fruits', name: 'Fruits' },
    { _id: 'oeufs', name: 'Œufs' },
    { _id: 'produits-laitiers', name: 'Produits laitiers' },
  ]
  const products: Product[] = [
    { _id: 'pomme', name: 'Pomme', unit: 'kg', family: 'fruits', vatRate: 550, refPrice: 1.56 },
    { _id: 'oeufs', name: 'Œufs de poule plein air', unit: 'douzaine', family: 'oeufs', vatRate: 550, refPrice: 0 },
    { _id: 'abricot', name: 'Abricot', unit: 'kg', family: 'fruits', vatRate: 550, refPrice: 2.5 },
    { _id: 'lait', name: 'Lait cru entier', unit: 'l', family: 'produits-laitiers', vatRate: 550, refPrice: 0 },
    { _id: 'vieux', name: 'Vieux type', unit: 'kg', family: 'fruits', vatRate: 550, refPrice: 0, retired: true },
    { _id: 'x', name: 'Sans famille', unit: 'pot', family: 'inconnue', vatRate: 2000, refPrice: 0 },
  ]

  it('groups the types in use by family, in the families’ order, by name', () => {
    expect(productOptions(products, families)).toEqual([
      {
        group: 'Fruits',
        items: [
          { value: 'abricot', label: 'Abricot' },
          { value: 'pomme', label: 'Pomme' },
        ],
      },
      { group: 'Œufs', items: [{ value: 'oeufs', label: 'Œufs de poule plein air' }] },
      { group: 'Produits laitiers', items: [{ value: 'lait', label: 'Lait cru entier' }] },
      { group: 'Autres', items: [{ value: 'x', label: 'Sans famille' }] },
    ])
  })

  it('offers a retired type only when it is the one chosen', () => {
    expect(productOptions(products, families, 'vieux')[0].items.map((i) => i.value)).toContain('vieux')
  })

  it('reads every unit of need', () => {
    expect([isWholeUnit('kg'), isWholeUnit('l'), isWholeUnit('douzaine'), isWholeUnit('un')]).toEqual([
      false,
      false,
      true,
      true,
    ])
    expect(unitLabel('l')).toBe('L')
    expect(unitAfter(2, 'douzaine')).toBe('douzaines')
    expect(unitAfter(1, 'bouteille')).toBe('bouteille')
  })
})
