import { describe, expect, it } from 'vitest'
import { euros } from '../components/DeliveryTermsForm'
import { termsText } from './DeliveryTermsNote'

const nbsp = '\u00a0'

describe('termsText', () => {
  it('says the minimum, the fee with its distance and the free threshold', () => {
    expect(termsText({ minimum: 80, fee: 12, freeAbove: 300, distanceKm: 27.9, exception: false })).toEqual([
      `Commande minimum : 80,00${nbsp}€ HT par livraison`,
      `Frais de livraison : 12,00${nbsp}€ HT par livraison (à 27,9 km), offerts dès 300,00${nbsp}€ HT livrés`,
    ])
  })
  it('says a free delivery when the shop has its own fee of 0 or a minimum without fee', () => {
    expect(termsText({ minimum: 0, fee: 0, freeAbove: 0, exception: true })).toEqual(['Livraison offerte'])
    expect(termsText({ minimum: 50, fee: 0, freeAbove: 0, exception: false })).toEqual([
      `Commande minimum : 50,00${nbsp}€ HT par livraison`,
      'Livraison offerte',
    ])
  })
  it('says nothing of a producer without terms', () => {
    expect(termsText({ minimum: 0, fee: 0, freeAbove: 0, exception: false })).toEqual([])
  })
})

describe('euros', () => {
  it('reads what the field holds the French way', () => {
    expect(euros(12.5)).toBe(12.5)
    expect(euros('9,5')).toBe(9.5)
    expect(euros('')).toBe(0)
    expect(euros('10,')).toBe(10)
    expect(euros('-1')).toBeNaN()
    expect(euros('abc')).toBeNaN()
  })
})
