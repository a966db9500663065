// "Statistiques de progression" (PRODUCT §2 "Statistics"): from the monthly
// values per product of `GET /api/stats/progression` — a shop's purchases, a
// producer's sales, as invoiced —, the change of a month against the month
// before (month over month) and against the same month a year earlier (year
// over year), in total and per product. Pure.
import { LOCALE, formatMonthYear } from '../format'
import { de } from '../grammar'

/** The answer of `GET /api/stats/progression`: 25 months, oldest first, the current one last. */
export interface ProgressionData {
  months: string[]
  products: { product: string; values: number[] }[]
}

/** How many months a selected month may be, the current one included (each has its year-earlier base). */
export const SELECTABLE_MONTHS = 12

/** One line of the table: a product, or the total. */
export interface ChangeRow {
  /** The product id, or "total". */
  key: string
  label: string
  /** EUR HT in the month. */
  value: number
  /** The month before, null when outside the data. */
  previous: number | null
  /** (value − previous) / previous; null without a base (no figure, or 0). */
  monthOverMonth: number | null
  /** The same month a year earlier, null when outside the data. */
  lastYear: number | null
  /** (value − lastYear) / lastYear; null without a base. */
  yearOverYear: number | null
}

export interface ProgressionTable {
  month: string
  previousMonth: string | null
  lastYearMonth: string | null
  total: ChangeRow
  /** Products with a figure in one of the three months, largest value first. */
  products: ChangeRow[]
}

/** Cents, to add euros without drift. */
const cents = (x: number) => (Number.isFinite(x) ? Math.round(x * 100) : 0)

/** The relative change from `base` to `value`; null when there is no base to compare with (none, or 0). */
export function relativeChange(value: number, base: number | null | undefined): number | null {
  if (base === null || base === undefined || !Number.isFinite(base) || base === 0 || !Number.isFinite(value))
    return null
  return (value - base) / base
}

const PERCENT = new Intl.NumberFormat(LOCALE, {
  style: 'percent',
  minimumFractionDigits: 1,
  maximumFractionDigits: 1,
  signDisplay: 'exceptZero',
})

/** "+12,5 %", "-3,0 %", "0,0 %"; "—" without a base. */
export function formatChange(change: number | null): string {
  return change === null ? '—' : PERCENT.format(change)
}

/** The months a user may pick, newest first: the current month and the 11 before it. */
export function selectableMonths(data: ProgressionData): string[] {
  return data.months.slice(-SELECTABLE_MONTHS).reverse()
}

/** The month shown first: the last complete one (the one before the current month). */
export function defaultMonth(data: ProgressionData): string | null {
  return data.months.at(-2) ?? data.months.at(-1) ?? null
}

/** Every product's values summed per month, in euros. */
export function monthlyTotals(data: ProgressionData): number[] {
  return data.months.map((_, i) => data.products.reduce((sum, p) => sum + cents(p.values[i] ?? 0), 0) / 100)
}

function row(key: string, label: string, values: readonly number[], i: number): ChangeRow {
  const at = (j: number) => (j >= 0 && j < values.length ? (values[j] ?? 0) : null)
  const value = at(i) ?? 0
  const previous = at(i - 1)
  const lastYear = at(i - 12)
  return {
    key,
    label,
    value,
    previous,
    monthOverMonth: relativeChange(value, previous),
    lastYear,
    yearOverYear: relativeChange(value, lastYear),
  }
}

/**
 * The table of `month` ("2026-10-01"): the total and each product with a
 * figure that month, the month before or a year before, largest value first
 * (then by name). `nameOf` gives a product's name (its id when unknown).
 * Null when the month is not in the data.
 */
export function progressionTable(
  data: ProgressionData,
  month: string,
  nameOf: (productId: string) => string = (id) => id,
): ProgressionTable | null {
  const i = data.months.indexOf(month)
  if (i === -1) return null
  const products = data.products
    .map((p) => row(p.product, nameOf(p.product), p.values, i))
    .filter((r) => r.value !== 0 || (r.previous ?? 0) !== 0 || (r.lastYear ?? 0) !== 0)
    .sort((a, b) => b.value - a.value || a.label.localeCompare(b.label, LOCALE))
  return {
    month,
    previousMonth: data.months[i - 1] ?? null,
    lastYearMonth: data.months[i - 12] ?? null,
    total: row('total', 'Total', monthlyTotals(data), i),
    products,
  }
}

/** "de mars 2026", "d'octobre 2026": the preposition elided before a vowel, as French writes it (grammar.ts). */
export function ofMonth(label: string): string {
  return de(label)
}

/** "octobre 2026", with " (en cours)" for the current month. */
export function monthLabel(data: ProgressionData, month: string): string {
  const label = formatMonthYear(month)
  return month === data.months.at(-1) ? `${label} (en cours)` : label
}

/**
 * The chart's two series for the 12 months ending with `month`: each
 * month's total, and the total of the same month a year earlier.
 */
export function yearOnYearSeries(
  data: ProgressionData,
  month: string,
): { months: string[]; current: number[]; yearBefore: (number | null)[] } {
  const end = data.months.indexOf(month)
  if (end === -1) return { months: [], current: [], yearBefore: [] }
  const totals = monthlyTotals(data)
  const start = Math.max(0, end - 11)
  const months = data.months.slice(start, end + 1)
  return {
    months,
    current: totals.slice(start, end + 1),
    yearBefore: months.map((_, k) => (start + k - 12 >= 0 ? totals[start + k - 12] : null)),
  }
}
