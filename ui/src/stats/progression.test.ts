import { describe, expect, it } from 'vitest'
import {
  type ProgressionData,
  defaultMonth,
  formatChange,
  monthLabel,
  monthlyTotals,
  ofMonth,
  progressionTable,
  relativeChange,
  selectableMonths,
  yearOnYearSeries,
} from './progression'

/** 25 months from November 2024 to November 2026. */
const MONTHS = Array.from({ length: 25 }, (_, i) => {
  const d = new Date(Date.UTC(2024, 10 + i, 1))
  return `${d.getUTCFullYear()}-${String(d.getUTCMonth() + 1).padStart(2, '0')}-01`
})

/** Values at some months, 0 elsewhere. */
const series = (at: Record<string, number>) => MONTHS.map((m) => at[m] ?? 0)

const data: ProgressionData = {
  months: MONTHS,
  products: [
    // Tomatoes: 200 € in October 2026, 160 € in September, 100 € in October 2025.
    { product: 'tomate', values: series({ '2026-10-01': 200, '2026-09-01': 160, '2025-10-01': 100 }) },
    // Pears: new in October 2026 (no base either way).
    { product: 'poire', values: series({ '2026-10-01': 50.1 }) },
    // Apples: sold in September only (down 100 % in October).
    { product: 'pomme', values: series({ '2026-09-01': 40, '2025-10-01': 0 }) },
    // Leeks: nothing around October 2026.
    { product: 'poireau', values: series({ '2025-03-01': 12 }) },
  ],
}

const names: Record<string, string> = { tomate: 'Tomate', poire: 'Poire', pomme: 'Pomme', poireau: 'Poireau' }
const spaces = (s: string) => s.replace(/\s/g, ' ')

describe('relativeChange and formatChange', () => {
  it('computes a change from its base, none without base', () => {
    expect(relativeChange(120, 100)).toBeCloseTo(0.2)
    expect(relativeChange(0, 40)).toBe(-1)
    expect(relativeChange(50, 0)).toBeNull()
    expect(relativeChange(50, null)).toBeNull()
    expect(relativeChange(50, undefined)).toBeNull()
  })

  it('writes French percentages with their sign, and a dash without base', () => {
    expect(spaces(formatChange(0.125))).toBe('+12,5 %')
    expect(spaces(formatChange(-0.03))).toBe('-3,0 %')
    expect(spaces(formatChange(0))).toBe('0,0 %')
    expect(spaces(formatChange(1.5))).toBe('+150,0 %')
    expect(formatChange(null)).toBe('—')
  })
})

describe('months', () => {
  it('offers the current month and the 11 before it, and starts on the last complete one', () => {
    const months = selectableMonths(data)
    expect(months).toHaveLength(12)
    expect(months[0]).toBe('2026-11-01')
    expect(months[11]).toBe('2025-12-01')
    expect(defaultMonth(data)).toBe('2026-10-01')
    expect(monthLabel(data, '2026-11-01')).toBe('novembre 2026 (en cours)')
    expect(monthLabel(data, '2026-10-01')).toBe('octobre 2026')
    expect(ofMonth('octobre 2026')).toBe("d'octobre 2026")
    expect(ofMonth('août 2026')).toBe("d'août 2026")
    expect(ofMonth('avril 2026')).toBe("d'avril 2026")
    expect(ofMonth('mars 2026')).toBe('de mars 2026')
  })

  it('sums the products per month to the cent', () => {
    const totals = monthlyTotals(data)
    expect(totals[MONTHS.indexOf('2026-10-01')]).toBe(250.1)
    expect(totals[MONTHS.indexOf('2026-09-01')]).toBe(200)
    expect(totals[0]).toBe(0)
  })
})

describe('progressionTable', () => {
  it('gives the total and each product against the month before and the year before', () => {
    const table = progressionTable(data, '2026-10-01', (id) => names[id])!
    expect(table.previousMonth).toBe('2026-09-01')
    expect(table.lastYearMonth).toBe('2025-10-01')
    expect(table.total).toMatchObject({ label: 'Total', value: 250.1, previous: 200, lastYear: 100 })
    expect(table.total.monthOverMonth).toBeCloseTo(0.2505)
    expect(table.total.yearOverYear).toBeCloseTo(1.501)
    // Largest first; leeks (nothing in the three months) are left out.
    expect(table.products.map((r) => r.label)).toEqual(['Tomate', 'Poire', 'Pomme'])
    const [tomate, poire, pomme] = table.products
    expect(tomate.monthOverMonth).toBeCloseTo(0.25)
    expect(tomate.yearOverYear).toBeCloseTo(1)
    expect(poire).toMatchObject({ value: 50.1, previous: 0, monthOverMonth: null, lastYear: 0, yearOverYear: null })
    expect(pomme).toMatchObject({ value: 0, previous: 40, monthOverMonth: -1, yearOverYear: null })
  })

  it('has no base before the data', () => {
    const table = progressionTable(data, '2024-11-01')!
    expect(table.previousMonth).toBeNull()
    expect(table.lastYearMonth).toBeNull()
    expect(table.total).toMatchObject({ previous: null, monthOverMonth: null, lastYear: null, yearOverYear: null })
  })

  it('names products by id without a catalogue, and knows no month outside the data', () => {
    expect(progressionTable(data, '2026-10-01')!.products[0].label).toBe('tomate')
    expect(progressionTable(data, '2030-01-01')).toBeNull()
  })

  it('is empty without deliveries', () => {
    const table = progressionTable({ months: MONTHS, products: [] }, '2026-10-01')!
    expect(table.products).toEqual([])
    expect(table.total).toMatchObject({ value: 0, previous: 0, monthOverMonth: null, yearOverYear: null })
  })
})

describe('yearOnYearSeries', () => {
  it('gives the 12 months ending with the month and the same months a year before', () => {
    const s = yearOnYearSeries(data, '2026-10-01')
    expect(s.months).toHaveLength(12)
    expect(s.months[0]).toBe('2025-11-01')
    expect(s.months[11]).toBe('2026-10-01')
    expect(s.current[11]).toBe(250.1)
    expect(s.yearBefore[11]).toBe(100)
    expect(s.yearBefore[4]).toBe(12) // March 2025 under March 2026
  })

  it('stops at the start of the data', () => {
    const s = yearOnYearSeries(data, '2025-02-01')
    expect(s.months[0]).toBe('2024-11-01')
    expect(s.yearBefore.every((v) => v === null)).toBe(true)
    expect(yearOnYearSeries(data, '2030-01-01').months).toEqual([])
  })
})
