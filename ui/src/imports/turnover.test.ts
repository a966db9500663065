import { describe, expect, it } from 'vitest'
import { retainedTurnoverText } from './turnover'

const text = (turnover: number, months: number) => retainedTurnoverText(turnover, months).replace(/\s/g, ' ')

describe('retainedTurnoverText', () => {
  it('says the turnover is annual and what a month takes of it, never the annual figure "over n months"', () => {
    expect(text(225000, 3)).toBe(
      'CA fruits et légumes annuel retenu : 225 000,00 €, soit 18 750,00 € par mois en moyenne, réparti selon la saison sur les 3 mois importés.',
    )
    expect(text(225000, 3)).not.toMatch(/225 000,00 € sur 3 mois/)
    expect(text(100000, 1)).toBe(
      'CA fruits et légumes annuel retenu : 100 000,00 €, soit 8 333,33 € par mois en moyenne, réparti selon la saison sur le mois importé.',
    )
    expect(text(100000, 0)).toBe(
      'CA fruits et légumes annuel retenu : 100 000,00 €, soit 8 333,33 € par mois en moyenne.',
    )
  })
  it('asks for the turnover while there is none', () => {
    expect(text(0, 12)).toBe('Renseignez votre chiffre d’affaires pour simuler vos besoins.')
    expect(text(Number.NaN, 12)).toBe('Renseignez votre chiffre d’affaires pour simuler vos besoins.')
  })
})
