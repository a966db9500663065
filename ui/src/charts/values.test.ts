import { describe, expect, it } from 'vitest'
import type { SupplyDay, SupplyProduct } from '../supply/types'
import { NO_VALUE, progressionText, purchasesText, stockText } from './values'

// French formatting puts a narrow no-break space between thousands and a
// no-break space before "€": compare with plain spaces.
const nb = (s: string) => s.replace(/[\u202f\u00a0]/g, ' ')
const plain = (rows: readonly { label: string; values: readonly string[] }[]) =>
  rows.map((r) => [r.label, ...r.values.map(nb)])

describe('purchasesText', () => {
  const series = {
    months: ['2026-10-01', '2026-11-01', '2026-12-01'],
    planned: [0, 1234.5, 300],
    done: [80.25, 1000, 0],
  }

  it('gives every month’s two values, in euros, the months in words', () => {
    const text = purchasesText(series)
    expect(text.rowHeader).toBe('Mois')
    expect(text.columns).toEqual(['Achats prévus', 'Achats réalisés'])
    expect(plain(text.rows)).toEqual([
      ['octobre 2026', '0,00 €', '80,25 €'],
      ['novembre 2026', '1 234,50 €', '1 000,00 €'],
      ['décembre 2026', '300,00 €', '0,00 €'],
    ])
    expect(text.caption).toBe("Achats prévus et réalisés par mois, d'octobre 2026 à décembre 2026, en euros hors taxes")
  })

  it('sums each series and names its highest month', () => {
    expect(nb(purchasesText(series).summary)).toBe(
      "Achats prévus et réalisés par mois, d'octobre 2026 à décembre 2026. " +
        'Prévus : 1 534,50 € au total, le plus haut en novembre 2026 (1 234,50 €). ' +
        'Réalisés : 1 080,25 € au total, le plus haut en novembre 2026 (1 000,00 €).',
    )
  })

  it('says when there is nothing to show', () => {
    const text = purchasesText({ months: ['2026-10-01', '2026-11-01'], planned: [0, 0], done: [0, 0] })
    expect(text.summary).toBe(
      "Achats prévus et réalisés par mois, d'octobre 2026 à novembre 2026 : aucun engagement ni livraison sur la période.",
    )
    expect(text.rows).toHaveLength(2)
  })

  it('names no highest month for a series without any amount', () => {
    const text = purchasesText({ months: ['2026-10-01', '2026-11-01'], planned: [10, 20], done: [0, 0] })
    expect(nb(text.summary)).toContain('Réalisés : 0,00 € au total.')
    expect(nb(text.summary)).toContain('Prévus : 30,00 € au total, le plus haut en novembre 2026 (20,00 €).')
  })
})

describe('progressionText', () => {
  const series = {
    months: ['2026-09-01', '2026-10-01', '2026-11-01'],
    current: [120, 0, 2500.4],
    yearBefore: [null, 50, 1500],
  }

  it('gives each month beside the same month a year earlier, "—" without data', () => {
    const text = progressionText(series, true)
    expect(text.columns).toEqual(['Achats réalisés', 'Un an plus tôt'])
    expect(plain(text.rows)).toEqual([
      ['septembre 2026', '120,00 €', NO_VALUE],
      ['octobre 2026', '0,00 €', '50,00 €'],
      ['novembre 2026', '2 500,40 €', '1 500,00 €'],
    ])
    expect(nb(text.summary)).toBe(
      'Achats réalisés par mois, de septembre 2026 à novembre 2026 : 2 620,40 € sur ces 3 mois, ' +
        '1 550,00 € sur les mêmes mois un an plus tôt (2 mois connus).',
    )
  })

  it('speaks of sales to a producer, and says when a year earlier is unknown', () => {
    const text = progressionText({ months: ['2026-11-01'], current: [10], yearBefore: [null] }, false)
    expect(text.columns).toEqual(['Ventes réalisées', 'Un an plus tôt'])
    expect(nb(text.summary)).toBe(
      'Ventes réalisées par mois, novembre 2026 : 10,00 € sur ce mois, aucune donnée un an plus tôt.',
    )
    expect(text.caption).toBe('Ventes réalisées par mois, novembre 2026, et un an plus tôt, en euros')
  })
})

describe('stockText', () => {
  const day = (date: string, current: number, baseline: number): SupplyDay => ({
    date,
    need: 0,
    deliveries: [],
    delivered: 0,
    morningStock: current,
    risk: 0,
    proposedOrder: 0,
    nextDate: date,
    nextNeed: 0,
    nextDeliveries: [],
    current,
    baseline,
  })
  const product: SupplyProduct = {
    product: 'tomate',
    name: 'Tomate',
    unit: 'kg',
    averageDailySales: 4,
    deliveredLast7Days: 20,
    atRisk: false,
    days: [day('2026-11-16', 1200, 1200), day('2026-11-17', 14.5, 8), day('2026-11-18', 30, 0)],
  }

  it('gives each day’s morning stock with and without the deliveries, in the product’s unit', () => {
    const text = stockText(product)
    expect(text.rowHeader).toBe('Jour')
    expect(text.columns).toEqual(['Avec les livraisons', 'Sans les livraisons'])
    expect(plain(text.rows)).toEqual([
      ['16/11/2026', '1 200 kg', '1 200 kg'],
      ['17/11/2026', '14,5 kg', '8 kg'],
      ['18/11/2026', '30 kg', '0 kg'],
    ])
    expect(text.caption).toBe('Stock du matin de Tomate du 16/11/2026 au 18/11/2026, en kg')
  })

  it('summarises from the first day to the last (the name the chart’s image keeps)', () => {
    expect(nb(stockText(product).summary)).toBe(
      'Stock du matin de Tomate : du 16/11/2026 au 18/11/2026, de 1 200 kg à 30 kg avec les livraisons prévues, ' +
        'de 1 200 kg à 0 kg sans elles.',
    )
  })

  it('says when the window has no day', () => {
    const text = stockText({ ...product, days: [] })
    expect(text.summary).toBe('Stock du matin de Tomate : aucun jour.')
    expect(text.rows).toEqual([])
    expect(text.caption).toBe('Stock du matin de Tomate, en kg')
  })
})
