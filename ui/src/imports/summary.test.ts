import { describe, expect, it } from 'vitest'
import { failuresHeading, failureText, missingText, successText } from './summary'

describe('import result texts', () => {
  it('says how many needs were imported (PRODUCT §2)', () => {
    expect(successText(32)).toBe('Import reussi de 32 besoins')
    expect(successText(0)).toBe('Import reussi de 0 besoins')
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
})
