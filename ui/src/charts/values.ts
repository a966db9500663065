// The charts' values as text (WCAG 1.1.1 and 1.3.1, RGAA 1.3 and 1.4): for
// each chart, a summary said and shown with it, and every value it
// draws as a table (ChartValues), in French, numbers formatted as the rest
// of the interface (../format). Pure.
import { formatDay, formatEUR, formatMonthYear, formatNumber } from '../format'
import { ofMonth } from '../stats/progression'
import type { PurchaseSeries } from '../stats/purchases'
import type { SupplyProduct } from '../supply/types'
import { de } from '../grammar'

/** One line of a chart's table: what it is (a month, a day) and one value per series. */
export interface ChartRow {
  label: string
  values: readonly string[]
}

/** A chart as text. */
export interface ChartText {
  /** What the chart shows, in a sentence or two: its span, totals, highs. */
  summary: string
  /** The table's caption. */
  caption: string
  /** The header of the rows' column ("Mois", "Jour"). */
  rowHeader: string
  /** The series, one column each. */
  columns: readonly string[]
  rows: readonly ChartRow[]
}

/** Shown for a value the chart has no base for (no data a year earlier). */
export const NO_VALUE = '—'

const sum = (values: readonly number[]) => values.reduce((a, b) => a + b, 0)

/** The index of the largest value (the first of equals), or -1 when every value is 0 or less. */
function highest(values: readonly number[]): number {
  let best = -1
  values.forEach((v, i) => {
    if (v > 0 && (best === -1 || v > values[best])) best = i
  })
  return best
}

/** "de décembre 2026 à novembre 2027", "d’octobre 2026 à …" — a span of months, or one month. */
function monthSpan(months: readonly string[]): string {
  if (months.length === 0) return ''
  const first = formatMonthYear(months[0])
  const last = formatMonthYear(months[months.length - 1])
  return months.length === 1 ? first : `${ofMonth(first)} à ${last}`
}

/** "12 345,00 € au total, le plus haut en mars 2027 (2 100,00 €)". */
function totalAndHigh(values: readonly number[], months: readonly string[]): string {
  const top = highest(values)
  const total = `${formatEUR(sum(values))} au total`
  return top === -1 ? total : `${total}, le plus haut en ${formatMonthYear(months[top])} (${formatEUR(values[top])})`
}

/**
 * The dashboard's statistics chart (stats/PurchasesChart): each month's
 * commitments (achats prévus) and done deliveries (achats réalisés).
 */
export function purchasesText(series: PurchaseSeries): ChartText {
  const span = monthSpan(series.months)
  const empty = series.planned.every((v) => v === 0) && series.done.every((v) => v === 0)
  const summary = empty
    ? `Achats prévus et réalisés par mois, ${span} : aucun engagement ni livraison sur la période.`
    : `Achats prévus et réalisés par mois, ${span}. Prévus : ${totalAndHigh(series.planned, series.months)}. ` +
      `Réalisés : ${totalAndHigh(series.done, series.months)}.`
  return {
    summary,
    caption: `Achats prévus et réalisés par mois, ${span}, en euros hors taxes`,
    rowHeader: 'Mois',
    columns: ['Achats prévus', 'Achats réalisés'],
    rows: series.months.map((month, i) => ({
      label: formatMonthYear(month),
      values: [formatEUR(series.planned[i] ?? 0), formatEUR(series.done[i] ?? 0)],
    })),
  }
}

/**
 * The progression chart (stats/ProgressionSection): a shop's purchases or a
 * producer's sales of each month, beside the same month a year earlier
 * ("—" without data a year earlier).
 */
export function progressionText(
  series: { months: readonly string[]; current: readonly number[]; yearBefore: readonly (number | null)[] },
  shop: boolean,
): ChartText {
  const what = shop ? 'Achats réalisés' : 'Ventes réalisées'
  const span = monthSpan(series.months)
  const known = series.yearBefore.filter((v): v is number => v !== null)
  const before =
    known.length === 0
      ? 'aucune donnée un an plus tôt'
      : `${formatEUR(sum(known))} sur ${series.months.length === 1 ? 'le même mois' : 'les mêmes mois'} un an plus tôt` +
        (known.length < series.months.length ? ` (${known.length} mois connus)` : '')
  return {
    summary:
      `${what} par mois, ${span} : ${formatEUR(sum(series.current))} ` +
      `${series.months.length === 1 ? 'sur ce mois' : `sur ces ${series.months.length} mois`}, ${before}.`,
    caption: `${what} par mois, ${span}, et un an plus tôt, en euros`,
    rowHeader: 'Mois',
    columns: [shop ? 'Achats réalisés' : 'Ventes réalisées', 'Un an plus tôt'],
    rows: series.months.map((month, i) => {
      const earlier = series.yearBefore[i]
      return {
        label: formatMonthYear(month),
        values: [
          formatEUR(series.current[i] ?? 0),
          earlier === null || earlier === undefined ? NO_VALUE : formatEUR(earlier),
        ],
      }
    }),
  }
}

/**
 * A product's small stock chart (supply/StockChart): each day's morning
 * stock with the planned deliveries, and without the window's deliveries.
 */
export function stockText(product: SupplyProduct): ChartText {
  const quantity = (v: number) => `${formatNumber(v, 2)} ${product.unit}`
  const days = product.days
  const first = days[0]
  const last = days[days.length - 1]
  const span = first && last ? `du ${formatDay(first.date)} au ${formatDay(last.date)}` : ''
  const summary =
    first && last
      ? `Stock du matin ${de(product.name)} : ${span}, de ${quantity(first.current)} à ${quantity(last.current)} ` +
        `avec les livraisons prévues, de ${quantity(first.baseline)} à ${quantity(last.baseline)} sans elles.`
      : `Stock du matin ${de(product.name)} : aucun jour.`
  return {
    summary,
    caption: `Stock du matin ${de(product.name)} ${span}, en ${product.unit}`.replace(/ +,/, ','),
    rowHeader: 'Jour',
    columns: ['Avec les livraisons', 'Sans les livraisons'],
    rows: days.map((d) => ({ label: formatDay(d.date), values: [quantity(d.current), quantity(d.baseline)] })),
  }
}
