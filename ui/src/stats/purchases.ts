// The dashboard's statistics (PRODUCT §2 "Dashboard", §9 "Chart: 17 months from
// 4 months back"): per month, the value of commitments ("achats prévus") and
// of done deliveries ("achats réalisés"). The daemon sums them (`GET
// /api/stats/purchases`, core/stats PurchasesOf, issue 42): the screen no
// longer reads a year of needs and orders to draw them. Pure.

/** PRODUCT §9: 17 months, starting 4 months before the current one. */
export const CHART_MONTHS = 17
export const CHART_MONTHS_BACK = 4

/** Series names (PRODUCT §2). */
export const SERIES = { planned: 'achats prévus', done: 'achats réalisés' } as const

export interface PurchaseSeries {
  /** First day of each month, "2026-07-01". */
  months: string[]
  /** EUR per month, to the cent. */
  planned: number[]
  done: number[]
}

/** "2026-11-20" (or a Date, read in its calendar) → "2026-11-01". */
function monthKey(year: number, monthIndex: number): string {
  const d = new Date(Date.UTC(year, monthIndex, 1))
  return `${d.getUTCFullYear()}-${String(d.getUTCMonth() + 1).padStart(2, '0')}-01`
}

/** The chart's months: 17 from 4 months before `today` ("YYYY-MM-DD"). */
export function chartMonths(today: string): string[] {
  const m = /^(\d{4})-(\d{2})/.exec(today)
  if (!m) return []
  const year = Number(m[1])
  const month = Number(m[2]) - 1
  return Array.from({ length: CHART_MONTHS }, (_, i) => monthKey(year, month - CHART_MONTHS_BACK + i))
}

/** The chart's months with nothing in them, until the figures come. */
export function emptySeries(today: string): PurchaseSeries {
  const months = chartMonths(today)
  return { months, planned: months.map(() => 0), done: months.map(() => 0) }
}
