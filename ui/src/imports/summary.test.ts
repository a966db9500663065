import { describe, expect, it } from 'vitest'
import { MSG_PAST_MONTH } from '../store/imports'
import { failuresHeading, failureText, missingText, pastHeading, pastText, splitFailures, successText } from './summary'

describe('import result texts', () => {
  it('says how many needs were imported (PRODUCT §2)', () => {
    expect(successText(32)).toBe('Import réussi de 32 besoins')
    expect(successText(0)).toBe('Import réussi de 0 besoins')
  })

  it.each([
    [[], ''],
    [['Kumquat'], 'Kumquat'],
    [['Kumquat', 'Yuzu', 'Physalis'], 'Kumquat, Yuzu, Physalis'],
    [['Kumquat', 'Yuzu', 'Physalis', 'Fruit du dragon'], 'Kumquat, Yuzu, Physalis, ...'],
    [['a', 'b', 'c', 'd', 'e', 'f'], 'a, b, c, ...'],
  ])('lists missing products %j as %s', (names, text) => {
    expect(missingText(names)).toBe(text)
  })

  it('describes needs under their commitments', () => {
    expect(failuresHeading(1)).toContain('1 besoin non importé')
    expect(failuresHeading(2)).toContain('2 besoins non importés')
    const e = {
      product: 'Tomate',
      productId: 'tomate',
      date: '2027-01-01',
      quantity: 50.5,
      reserved: 100,
      cell: 'B2',
      message: 'm',
    }
    expect(failureText(e, 'kg')).toBe('Tomate, janvier 2027 (B2) : 50,5 kg demandés, 100 kg engagés ou proposés')
    expect(failureText({ ...e, cell: undefined, quantity: 3, reserved: 4 }, 'un')).toBe(
      'Tomate, janvier 2027 : 3 un demandés, 4 un engagés ou proposés',
    )
    expect(failureText({ ...e, reserved: 0, message: 'Ce mois est passé' }, 'kg')).toBe(
      'Tomate, janvier 2027 (B2) : Ce mois est passé',
    )
  })

  it('tells past months from needs under their commitments', () => {
    const e = (message: string, reserved: number) => ({
      product: 'Tomate',
      productId: 'tomate',
      date: '2026-01-01',
      quantity: 12.5,
      reserved,
      cell: 'B2',
      message,
    })
    const below = e('La valeur saisie ne peut etre inferieure a la somme des engagements.', 20)
    // A past month whose need producers also hold is past first: no import changes it.
    const past = e(MSG_PAST_MONTH, 20)
    expect(splitFailures([below, past, below])).toEqual({ reserved: [below, below], past: [past] })
    expect(pastHeading(1)).toBe('1 besoin non importé : son mois est passé')
    expect(pastHeading(70)).toBe('70 besoins non importés : leurs mois sont passés')
    expect(pastText(past, 'kg')).toBe('Tomate, janvier 2026 (B2) : 12,5 kg')
    expect(pastText({ ...past, cell: undefined, quantity: 3 }, 'un')).toBe('Tomate, janvier 2026 : 3 un')
  })
})
