import { describe, expect, it } from 'vitest'
import { MSG_PAST_MONTH } from '../store/imports'
import { previewCounts, previewHeading, sheetText, unchangedText } from './previewText'

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

  it('names the sheet read', () => {
    expect(sheetText('Besoins_2')).toBe('Feuille lue : « Besoins_2 »')
  })

  it('says why nothing would change when the lists do not', () => {
    const error = (message: string) => ({
      product: 'Tomate',
      productId: 'tomate',
      date: '2026-01-01',
      quantity: 1,
      reserved: 0,
      message,
    })
    const none = { dbErrors: [], dbSuccesses: 0, productsMissing: [], productsFound: [] }
    expect(unchangedText({ ...none, dbSuccesses: 4, productsFound: ['Tomate'] })).toBe(
      'Ses quantités sont déjà celles de vos besoins.',
    )
    expect(unchangedText({ ...none, dbErrors: [error(MSG_PAST_MONTH)] })).toBe('Tous ses mois sont passés.')
    // Refused under commitments: the list's heading says why.
    expect(unchangedText({ ...none, dbErrors: [error(MSG_PAST_MONTH), error('autre')] })).toBeNull()
    expect(unchangedText({ ...none, productsMissing: ['Kumquat'] })).toBe(
      "Aucun de ses produits n'est dans la liste des produits.",
    )
    expect(unchangedText(none)).toBeNull()
  })
})
