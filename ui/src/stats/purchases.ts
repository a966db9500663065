// The dashboard's statistics (PRODUCT §2 "Dashboard", §9 "Chart: 17 months from
// 4 months back"): per month, the value of commitments ("achats prévus") and
// of done deliveries ("achats réalisés"), from the user's own data (the user
// load). Pure.
import type { Need, Order } from '../types'

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

/** Hundredths of a decimal amount (quantities and prices have at most 2 decimals). */
const hundredths = (x: number) => (Number.isFinite(x) ? Math.round(x * 100) : 0)

/** quantity × price in cents, rounded half up like an invoice line (PRODUCT §16). */
function lineCents(quantity: number, price: number): number {
  const q = hundredths(quantity)
  const p = hundredths(price)
  if (q <= 0 || p <= 0) return 0
  return Math.floor((q * p + 50) / 100)
}

/**
 * The two series for `today` ("YYYY-MM-DD", Europe/Paris):
 * - planned: Σ quantity × price of accepted proposals on needs of each month
 *   (a shop's commitments; for a producer, the load only holds its own);
 * - done: Σ (quantitySent + quantityClaimed when the claim was accepted) ×
 *   price over the lines of done deliveries dated in each month — what the
 *   invoice of the month bills, so it equals the invoice totals (HT).
 * `producerId`, when given, keeps only that producer's commitments.
 */
export function purchaseSeries(
  needs: readonly Need[],
  orders: readonly Order[],
  today: string,
  producerId?: string,
): PurchaseSeries {
  const months = chartMonths(today)
  const index = new Map(months.map((m, i) => [m.slice(0, 7), i]))
  const planned = months.map(() => 0)
  const done = months.map(() => 0)
  for (const need of needs) {
    const i = index.get(need.date.slice(0, 7))
    if (i === undefined) continue
    for (const p of need.proposals) {
      if (p.status !== 'accepted') continue
      if (producerId && p.producer !== producerId) continue
      planned[i] += lineCents(p.quantity, p.price)
    }
  }
  for (const order of orders) {
    for (const delivery of order.deliveries) {
      if (delivery.status !== 'done') continue
      const i = index.get(delivery.date.slice(0, 7))
      if (i === undefined) continue
      for (const line of delivery.deliveryLines) {
        const claimed = delivery.claimStatus === 'accepted' ? line.quantityClaimed : 0
        done[i] += lineCents(line.quantitySent + claimed, line.price)
      }
    }
  }
  return { months, planned: planned.map((c) => c / 100), done: done.map((c) => c / 100) }
}
