import { describe, expect, it } from 'vitest'
import { need, products, proposal } from '../test/needs'
import type { Viewer } from './model'
import { awaitsAnswerFrom, buildRows, cellTone, plannerView, searchRows, tabCounts, tabLabel } from './rows'

const shop: Viewer = { type: 'distributor', id: 'd1' }
const farm: Viewer = { type: 'producer', id: 'f1' }
const months = ['2026-12-01', '2027-01-01', '2027-02-01']

describe('awaitsAnswerFrom', () => {
  it('a shop answers pending proposals of producers', () => {
    expect(awaitsAnswerFrom(proposal('f1', 'proposed', 5), shop)).toBe(true)
    expect(awaitsAnswerFrom(proposal('f1', 'proposed', 5, 'producer'), shop)).toBe(true)
    expect(awaitsAnswerFrom(proposal('f1', 'proposed', 5, 'distributor'), shop)).toBe(false)
    expect(awaitsAnswerFrom(proposal('f1', 'accepted', 5), shop)).toBe(false)
    expect(awaitsAnswerFrom(proposal('f1', 'rejected', 5), shop)).toBe(false)
  })

  it("a producer answers the shop's pending counter-proposals on its own offers", () => {
    expect(awaitsAnswerFrom(proposal('f1', 'proposed', 5, 'distributor'), farm)).toBe(true)
    expect(awaitsAnswerFrom(proposal('f2', 'proposed', 5, 'distributor'), farm)).toBe(false)
    expect(awaitsAnswerFrom(proposal('f1', 'proposed', 5), farm)).toBe(false)
    expect(awaitsAnswerFrom(proposal('f1', 'rejected', 5, 'distributor'), farm)).toBe(false)
  })
})

describe('buildRows', () => {
  it('lists products with a need in the period, by French name, with their needs by month', () => {
    const needs = [
      need('tomate', '2026-12-01', 10),
      need('tomate', '2027-02-01', 20),
      need('peche', '2027-01-01', 5),
      need('pomme', '2026-11-01', 7), // before the period
      need('melon', '2027-03-01', 7), // after the period
      need('inconnu', '2026-12-01', 7), // not in the catalogue
    ]
    const rows = buildRows(needs, products, months, shop)
    expect(rows.map((r) => r.product.name)).toEqual(['Pêche', 'Tomate'])
    expect([...rows[1].needs.keys()]).toEqual(['2026-12-01', '2027-02-01'])
  })

  it('flags rows from the needs inside the period only', () => {
    const needs = [
      need('tomate', '2026-12-01', 10, { proposals: [proposal('f1', 'proposed', 5)], quantityProposed: 5 }),
      need('pomme', '2027-01-01', 10, { proposals: [proposal('f1', 'accepted', 5)], quantityAccepted: 5 }),
      need('pomme', '2026-11-01', 10, { proposals: [proposal('f1', 'proposed', 5)], quantityProposed: 5 }),
      need('melon', '2027-01-01', 3),
    ]
    const rows = buildRows(needs, products, months, shop)
    const flags = Object.fromEntries(rows.map((r) => [r.product._id, [r.pending, r.engaged]]))
    expect(flags).toEqual({ tomate: [true, false], pomme: [false, true], melon: [false, false] })
    expect(tabCounts(rows)).toEqual({ pending: 1, engaged: 1, all: 3 })
  })
})

describe('searchRows', () => {
  const rows = buildRows(
    [
      need('tomate', '2026-12-01', 1),
      need('peche', '2026-12-01', 1),
      need('chou-fleur', '2026-12-01', 1),
      need('pomme', '2026-12-01', 1),
    ],
    products,
    months,
    shop,
  )
  const names = (query: string) => searchRows(rows, query).map((r) => r.product.name)

  it('keeps every row for an empty query', () => {
    expect(names('  ')).toEqual(['Chou-fleur', 'Pêche', 'Pomme', 'Tomate'])
  })

  it('matches fuzzily, without case or accents, and keeps the grid order', () => {
    expect(names('tomate')).toEqual(['Tomate'])
    expect(names('TOMATTE')).toEqual(['Tomate'])
    expect(names('peche')).toEqual(['Pêche'])
    expect(names('chou')).toEqual(['Chou-fleur'])
    expect(names('po')).toContain('Pomme')
  })

  it('finds nothing for a distant query', () => {
    expect(names('banane')).toEqual([])
    expect(names('xyz')).toEqual([])
  })
})

describe('plannerView', () => {
  const needs = [
    need('tomate', '2026-12-01', 10, { proposals: [proposal('f1', 'proposed', 5)], quantityProposed: 5 }),
    need('pomme', '2027-01-01', 10, { proposals: [proposal('f1', 'accepted', 5)], quantityAccepted: 5 }),
    need('melon', '2027-02-01', 3),
  ]

  it('filters by family and by the types producers sell (PRODUCT §2 "Filters"), nothing left saying so', () => {
    const fruits = plannerView(needs, products, months, shop, '', 'all', { family: 'fruits', types: null })
    expect(fruits.rows.map((r) => r.product._id)).toEqual(['melon', 'pomme'])
    expect(fruits.counts).toEqual({ pending: 0, engaged: 1, all: 2 })
    const sold = plannerView(needs, products, months, shop, '', 'all', { family: '', types: new Set(['tomate']) })
    expect(sold.rows.map((r) => r.product._id)).toEqual(['tomate'])
    const none = plannerView(needs, products, months, shop, '', 'all', { family: 'fruits', types: new Set(['tomate']) })
    expect(none.empty).toBe('no-match')
    expect(plannerView(needs, products, months, shop, '', 'all', { family: '', types: null }).rows).toHaveLength(3)
  })

  it('filters by tab and counts every tab over the search', () => {
    const all = plannerView(needs, products, months, shop, '', 'all')
    expect(all.rows.map((r) => r.product._id)).toEqual(['melon', 'pomme', 'tomate'])
    expect(all.counts).toEqual({ pending: 1, engaged: 1, all: 3 })
    expect(all.empty).toBeNull()

    const pending = plannerView(needs, products, months, shop, '', 'pending')
    expect(pending.rows.map((r) => r.product._id)).toEqual(['tomate'])

    const engaged = plannerView(needs, products, months, shop, '', 'engaged')
    expect(engaged.rows.map((r) => r.product._id)).toEqual(['pomme'])

    const searched = plannerView(needs, products, months, shop, 'pomme', 'all')
    expect(searched.rows.map((r) => r.product._id)).toEqual(['pomme'])
    expect(searched.counts).toEqual({ pending: 0, engaged: 1, all: 1 })
  })

  it('says why the list is empty', () => {
    expect(plannerView(needs, products, months, shop, 'banane', 'all').empty).toBe('no-match')
    expect(plannerView(needs, products, months, shop, 'melon', 'pending').empty).toBe('no-needs')
    expect(plannerView(needs, products, ['2030-01-01'], shop, '', 'all').empty).toBe('no-needs')
    expect(plannerView([], products, months, shop, 'tomate', 'all').empty).toBe('no-match')
  })

  it("counts a producer's pending answers from its own side", () => {
    const shopNeeds = [
      need('tomate', '2026-12-01', 10, {
        proposals: [proposal('f1', 'proposed', 5, 'distributor')],
        quantityProposed: 5,
      }),
      need('pomme', '2026-12-01', 10, { proposals: [proposal('f1', 'proposed', 5)], quantityProposed: 5 }),
    ]
    expect(plannerView(shopNeeds, products, months, farm, '', 'all').counts).toEqual({ pending: 1, engaged: 0, all: 2 })
    expect(plannerView(shopNeeds, products, months, shop, '', 'all').counts).toEqual({ pending: 1, engaged: 0, all: 2 })
  })

  it('labels the tabs', () => {
    expect(tabLabel('pending', 3)).toBe('À VALIDER (3)')
    expect(tabLabel('engaged', 0)).toBe('ENGAGÉS (0)')
    expect(tabLabel('all', 12)).toBe('TOUS (12)')
  })
})

describe('cellTone', () => {
  it.each([
    ['no need', undefined, shop, 'none'],
    ['a need without proposals', need('tomate', '2026-12-01', 10), shop, 'open'],
    [
      'a producer proposal, seen by the shop',
      need('tomate', '2026-12-01', 10, { quantityProposed: 4, proposals: [proposal('f1', 'proposed', 4)] }),
      shop,
      'awaits',
    ],
    [
      'the same proposal, seen by its producer',
      need('tomate', '2026-12-01', 10, { quantityProposed: 4, proposals: [proposal('f1', 'proposed', 4)] }),
      farm,
      'proposed',
    ],
    [
      "the shop's counter-proposal, seen by the producer",
      need('tomate', '2026-12-01', 10, {
        quantityProposed: 4,
        proposals: [proposal('f1', 'proposed', 4, 'distributor')],
      }),
      farm,
      'awaits',
    ],
    [
      'a rejected proposal only',
      need('tomate', '2026-12-01', 10, { proposals: [proposal('f1', 'rejected', 4)] }),
      shop,
      'open',
    ],
    [
      'partly committed',
      need('tomate', '2026-12-01', 10, { quantityAccepted: 6, proposals: [proposal('f1', 'accepted', 6)] }),
      shop,
      'engaged',
    ],
    [
      'entirely committed',
      need('tomate', '2026-12-01', 10, { quantityAccepted: 10, proposals: [proposal('f1', 'accepted', 10)] }),
      shop,
      'covered',
    ],
    [
      'committed with a correction under way',
      need('tomate', '2026-12-01', 12, {
        quantityAccepted: 10,
        quantityProposed: 2,
        proposals: [proposal('f1', 'accepted', 10), proposal('f1', 'proposed', 12, 'distributor')],
      }),
      shop,
      'engaged',
    ],
  ] as const)('%s', (_, n, viewer, tone) => {
    expect(cellTone(n, viewer)).toBe(tone)
  })

  it('is carried by the rows, month by month', () => {
    const rows = buildRows(
      [
        need('tomate', '2026-12-01', 10),
        need('tomate', '2027-01-01', 10, { quantityAccepted: 10, proposals: [proposal('f1', 'accepted', 10)] }),
      ],
      products,
      months,
      shop,
    )
    expect(rows[0].tones.get('2026-12-01')).toBe('open')
    expect(rows[0].tones.get('2027-01-01')).toBe('covered')
    expect(rows[0].tones.get('2027-02-01')).toBeUndefined()
  })
})
