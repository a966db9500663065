import { describe, expect, it } from 'vitest'
import type { Delivery, DeliveryLine, Need, Order, Proposal } from '../types'
import { SERIES, chartMonths, purchaseSeries } from './purchases'

const proposal = (producer: string, status: Proposal['status'], quantity: number, price: number): Proposal => ({
  _id: `${producer}-${status}-${quantity}`,
  producer,
  from: 'producer',
  status,
  quantity,
  price,
})

const need = (date: string, proposals: Proposal[]): Need => ({
  _id: `n-${date}-${proposals.length}`,
  product: 'tomate',
  distributor: 'd1',
  date,
  quantity: 1000,
  quantityAccepted: 0,
  quantityProposed: 0,
  quantityAvailable: 1000,
  updatedAt: '2026-11-01T00:00:00Z',
  proposals,
})

const line = (quantitySent: number, price: number, quantityClaimed = 0): DeliveryLine => ({
  _id: `l-${quantitySent}-${price}`,
  product: 'tomate',
  price,
  quantityExpected: quantitySent,
  quantitySent,
  quantityClaimed,
})

const delivery = (
  date: string,
  status: Delivery['status'],
  lines: DeliveryLine[],
  claimStatus: Delivery['claimStatus'] = 'void',
): Delivery => ({
  _id: `del-${date}-${status}`,
  orderId: 'o1',
  status,
  date,
  chrono: 1,
  claimStatus,
  deliveryLines: lines,
})

const order = (deliveries: Delivery[]): Order => ({ _id: 'o1', date: '2026-10-01', producer: 'p1', deliveries })

describe('chartMonths', () => {
  it('covers 17 months from 4 months back', () => {
    const months = chartMonths('2026-11-20')
    expect(months).toHaveLength(17)
    expect(months[0]).toBe('2026-07-01')
    expect(months[4]).toBe('2026-11-01')
    expect(months[16]).toBe('2027-11-01')
  })

  it('crosses year boundaries both ways', () => {
    expect(chartMonths('2027-02-03').slice(0, 5)).toEqual([
      '2026-10-01',
      '2026-11-01',
      '2026-12-01',
      '2027-01-01',
      '2027-02-01',
    ])
  })

  it('gives nothing for an unreadable day', () => {
    expect(chartMonths('bientôt')).toEqual([])
  })
})

describe('purchaseSeries', () => {
  it('names the series as PRODUCT does', () => {
    expect(SERIES).toEqual({ planned: 'achats prévus', done: 'achats réalisés' })
  })

  it('sums accepted commitments per month, and nothing else', () => {
    const needs = [
      need('2026-11-01', [
        proposal('p1', 'accepted', 40, 2.5),
        proposal('p2', 'accepted', 10.5, 1.99),
        proposal('p3', 'proposed', 100, 9),
      ]),
      need('2026-12-01', [proposal('p1', 'rejected', 10, 3), proposal('p1', 'accepted', 3, 3.33)]),
      need('2026-06-01', [proposal('p1', 'accepted', 1000, 1)]), // before the window
      need('2027-12-01', [proposal('p1', 'accepted', 1000, 1)]), // after the window
    ]
    const s = purchaseSeries(needs, [], '2026-11-20')
    // 100 + 20.895 → 20.90 (half up, per line) = 120.90; 9.99 in December.
    expect(s.planned[4]).toBe(120.9)
    expect(s.planned[5]).toBe(9.99)
    expect(s.planned.reduce((a, b) => a + b, 0)).toBeCloseTo(130.89, 9)
    expect(s.done.every((v) => v === 0)).toBe(true)
  })

  it("keeps only a producer's own commitments when asked", () => {
    const needs = [need('2026-11-01', [proposal('p1', 'accepted', 40, 2.5), proposal('p2', 'accepted', 10, 2)])]
    expect(purchaseSeries(needs, [], '2026-11-20', 'p2').planned[4]).toBe(20)
  })

  it('values done deliveries as invoiced: sent plus accepted claims, by delivery month', () => {
    const orders = [
      order([
        delivery('2026-10-06', 'done', [line(40, 2.5), line(10.5, 1.99, -2)], 'accepted'), // 100 + 16.915 → 116.92
        delivery('2026-10-13', 'done', [line(80, 2.5, 10)], 'rejected'), // 200, claim ignored
        delivery('2026-10-20', 'done', [line(10, 1, 5)], 'sent'), // 10, claim pending
        delivery('2026-10-27', 'cancelled', [line(100, 100)]),
        delivery('2026-11-24', 'planned', [line(100, 100)]),
        delivery('2026-11-02', 'done', [line(3, 0.5, -5)], 'accepted'), // negative: counts 0
      ]),
      order([delivery('2026-07-01', 'done', [line(1, 7)])]),
    ]
    const s = purchaseSeries([], orders, '2026-11-20')
    expect(s.done.slice(0, 5)).toEqual([7, 0, 0, 326.92, 0])
    expect(s.planned.every((v) => v === 0)).toBe(true)
  })

  it('gives zeros over the whole window without data', () => {
    const s = purchaseSeries([], [], '2026-11-20')
    expect(s.months).toHaveLength(17)
    expect(s.planned).toEqual(Array(17).fill(0))
    expect(s.done).toEqual(Array(17).fill(0))
  })
})
