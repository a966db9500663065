import { describe, expect, it } from 'vitest'
import type { ProducerEntry } from '../types'
import {
  SUPPLY_TITLE,
  atRiskText,
  chartSeries,
  dayHeader,
  dayHeaderLines,
  formatSupplyQuantity,
  incomingLabel,
  noDeliveriesMessage,
  producerName,
  riskColor,
  riskLabel,
} from './format'
import type { SupplyProduct, SupplyProjection } from './types'

const nb = (s: string) => s.replace(/[\u202f\u00a0]/g, ' ')

const tomato: SupplyProduct = {
  product: 'tomate',
  name: 'Tomate',
  unit: 'kg',
  averageDailySales: 10,
  deliveredLast7Days: 50.75,
  atRisk: true,
  days: [
    {
      date: '2026-11-16',
      need: 10,
      deliveries: [{ producer: 'p2', quantity: 25.5 }],
      delivered: 25.5,
      morningStock: 0,
      risk: 0,
      proposedOrder: 0,
      nextDate: '2026-11-17',
      nextNeed: 10,
      nextDeliveries: [],
      current: 0,
      baseline: 0,
    },
    {
      date: '2026-11-17',
      need: 10,
      deliveries: [],
      delivered: 0,
      morningStock: 16,
      risk: 0,
      proposedOrder: 4,
      nextDate: '2026-11-18',
      nextNeed: 10,
      nextDeliveries: [],
      current: 16,
      baseline: 0,
    },
  ],
}

const projection: SupplyProjection = {
  start: '2026-11-16',
  end: '2026-11-17',
  days: 2,
  today: '2026-11-20',
  dates: ['2026-11-16', '2026-11-17'],
  hasDeliveries: true,
  products: [tomato],
  producers: [
    { _id: 'p2', name: 'Alpage (projection)' },
    { _id: 'p3', name: 'Verger' },
  ],
}

describe('supply texts', () => {
  it('has the PRODUCT title', () => {
    expect(SUPPLY_TITLE).toBe("Évolution des stocks et conseils d'approvisionnement")
  })

  it('heads columns with the short weekday and the day', () => {
    expect(dayHeader('2026-11-16')).toBe('lun. 16/11')
    expect(dayHeader('2026-11-22')).toBe('dim. 22/11')
    expect(dayHeader('2027-01-01')).toBe('ven. 01/01')
    expect(dayHeader('nope')).toBe('nope')
    expect(dayHeaderLines('2026-11-16')).toEqual(['lun.', '16/11'])
    expect(dayHeaderLines('2026-11-21')).toEqual(['sam.', '21/11'])
    expect(dayHeaderLines('nope')).toEqual(['nope', ''])
  })

  it('keeps 2 decimals of supply quantities, pieces included', () => {
    expect(nb(formatSupplyQuantity(3.7, 'un'))).toBe('3,7 un')
    expect(nb(formatSupplyQuantity(1234.5, 'kg'))).toBe('1 234,5 kg')
    expect(nb(formatSupplyQuantity(0, 'kg'))).toBe('0 kg')
  })

  it('names and colours risk levels', () => {
    expect([0, 1, 2].map((r) => riskLabel(r as 0 | 1 | 2))).toEqual([
      'Besoin couvert',
      'Couverture partielle',
      'Stock vide',
    ])
    expect([0, 1, 2].map((r) => riskColor(r as 0 | 1 | 2))).toEqual(['green', 'orange', 'red'])
  })

  it('shows incoming quantities only when something comes', () => {
    expect(incomingLabel(25.5, 1)).toBe('+25,5')
    expect(incomingLabel(0, 1)).toBe('+0')
    expect(incomingLabel(0, 0)).toBe('')
  })

  it('says when no delivery is planned and suggests the arrows (PRODUCT §2)', () => {
    expect(noDeliveriesMessage('2026-11-16', '2026-11-20')).toBe(
      "Aucune livraison n'est prévue entre le 16/11/2026 et le 20/11/2026. Utilisez les flèches pour consulter d'autres dates.",
    )
  })

  it('explains the at-risk flag', () => {
    expect(nb(atRiskText(tomato))).toBe(
      'Livraisons des 7 derniers jours : 50,75 kg, sous 7 fois les ventes moyennes (70 kg).',
    )
  })

  it('names producers from the user load first, then the projection, then the id', () => {
    const loaded: ProducerEntry[] = [{ _id: 'p2', name: 'Alpage' }]
    expect(producerName('p2', loaded, projection)).toBe('Alpage')
    expect(producerName('p3', loaded, projection)).toBe('Verger')
    expect(producerName('p9', loaded, projection)).toBe('p9')
    expect(producerName('p9', loaded, null)).toBe('p9')
  })

  it('draws the current and baseline series over the window', () => {
    expect(chartSeries(tomato)).toEqual({ x: ['2026-11-16', '2026-11-17'], current: [0, 16], baseline: [0, 0] })
  })
})
