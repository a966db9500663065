// Which day the phone's detail sheet of the supply screen shows (issue 19
// "Phone layouts"): a tap on a day shows that day; a tap on a product's
// name shows the product on a day chosen here; the sheet's arrows step
// through the window's days. Pure, tested on its own.
import type { SupplySelection } from '../store/supply'
import type { SupplyProjection } from './types'

/** The sheet's texts. */
export const SHEET = {
  title: 'Détail du produit',
  previous: 'Jour précédent',
  next: 'Jour suivant',
  chart: 'Stock du matin sur la période',
} as const

/**
 * The day a product's detail opens on when its name is tapped: the day
 * already selected on that product, else today when the window shows it,
 * else the window's first day (null for an empty window).
 */
export function productDay(
  projection: Pick<SupplyProjection, 'dates' | 'today'>,
  product: string,
  selected: SupplySelection | null,
): string | null {
  const { dates, today } = projection
  if (selected?.product === product && dates.includes(selected.date)) return selected.date
  if (dates.includes(today)) return today
  return dates[0] ?? null
}

/** The window's day before (-1) or after (+1) `date`, or null at its ends or outside it. */
export function neighbourDay(dates: readonly string[], date: string, direction: -1 | 1): string | null {
  const i = dates.indexOf(date)
  if (i < 0) return null
  return dates[i + direction] ?? null
}
