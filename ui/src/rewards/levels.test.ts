import { describe, expect, it } from 'vitest'
import { LEVELS, levelByKey, levelOf, progressToNext } from './levels'

describe('levels (PRODUCT §9)', () => {
  it('lists the four levels with their names and thresholds', () => {
    expect(LEVELS.map((l) => [l.key, l.name, l.purchases, l.contribution])).toEqual([
      ['sympathisant', 'Sympathisant', 0, 0],
      ['militant', 'Militant', 500, 0],
      ['ambassadeur', 'Ambassadeur certifié', 1000, 10],
      ['super-ambassadeur', 'Super Ambassadeur certifié', 2000, 100],
    ])
  })

  // The same table as core/rewards TestLevelOf: the UI and the daemon agree.
  it.each([
    [0, 0, 'sympathisant'],
    [499.99, 0, 'sympathisant'],
    [300, 100, 'sympathisant'],
    [500, 0, 'militant'],
    [5000, 0, 'militant'],
    [999.99, 10, 'militant'],
    [1000, 9.99, 'militant'],
    [1000, 10, 'ambassadeur'],
    [1999.99, 100, 'ambassadeur'],
    [2000, 99.99, 'ambassadeur'],
    [2000, 100, 'super-ambassadeur'],
    [8000, 500, 'super-ambassadeur'],
  ])('levelOf(%s €, %s €/mois) = %s', (purchases, contribution, key) => {
    expect(levelOf(purchases, contribution).key).toBe(key)
  })

  it('treats nonsense as nothing', () => {
    expect(levelOf(Number.NaN, -5).key).toBe('sympathisant')
  })

  it('finds a level by key', () => {
    expect(levelByKey('ambassadeur').name).toBe('Ambassadeur certifié')
    expect(levelByKey('inconnu').key).toBe('sympathisant')
    expect(levelByKey(null).key).toBe('sympathisant')
  })
})

describe('progressToNext', () => {
  it.each([
    // purchases, contribution → level, next, percent, missing purchases, missing contribution
    [0, 0, 'sympathisant', 'militant', 0, 500, 0],
    [125, 0, 'sympathisant', 'militant', 25, 375, 0],
    [499.99, 0, 'sympathisant', 'militant', 99, 0.01, 0],
    [500, 0, 'militant', 'ambassadeur', 25, 500, 10],
    [750, 5, 'militant', 'ambassadeur', 62, 250, 5],
    [1500, 0, 'militant', 'ambassadeur', 50, 0, 10],
    [900, 10, 'militant', 'ambassadeur', 95, 100, 0],
    [1000, 10, 'ambassadeur', 'super-ambassadeur', 30, 1000, 90],
    [2400, 50, 'ambassadeur', 'super-ambassadeur', 75, 0, 50],
    [1999.99, 100, 'ambassadeur', 'super-ambassadeur', 99, 0.01, 0],
  ])('%s € and %s €/mois: %s → %s at %s %%', (purchases, contribution, level, next, percent, missingP, missingC) => {
    const p = progressToNext(purchases, contribution)
    expect(p.level.key).toBe(level)
    expect(p.next?.key).toBe(next)
    expect(p.percent).toBe(percent)
    expect(p.missingPurchases).toBe(missingP)
    expect(p.missingContribution).toBe(missingC)
  })

  it('is full at the top level', () => {
    expect(progressToNext(3000, 150)).toMatchObject({
      next: null,
      percent: 100,
      missingPurchases: 0,
      missingContribution: 0,
    })
  })
})
