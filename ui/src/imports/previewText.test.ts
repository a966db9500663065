import { describe, expect, it } from 'vitest'
import { previewCounts, previewHeading } from './previewText'

describe('preview texts', () => {
  it('counts new and changed needs', () => {
    const c = (from: number | null) => ({
      product: 'Tomate',
      productId: 'tomate',
      date: '2027-01-01',
      cell: 'B2',
      from,
      to: 3,
    })
    expect(previewCounts([c(null), c(2), c(null)])).toEqual({ created: 2, changed: 1 })
    expect(previewCounts([])).toEqual({ created: 0, changed: 0 })
  })

  it('says what would be written', () => {
    expect(previewHeading(2, 1)).toBe('2 besoins à créer, 1 besoin à modifier')
    expect(previewHeading(1, 0)).toBe('1 besoin à créer')
    expect(previewHeading(0, 3)).toBe('3 besoins à modifier')
    expect(previewHeading(0, 0)).toBe('Ce fichier ne changerait aucun besoin')
  })
})
