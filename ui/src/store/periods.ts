// The addresses of the lists read by months (issue 42), pure: the store's
// reads (lists.ts, needs.ts) and the entry's reads ahead of a screen's code
// (screens.ts `screenReads`) build the same text, so that the store takes
// the answer the entry asked for (api.ts `readAhead`).
import { addMonths, type Month, monthOf } from '../planner/period'

/** How far back the deliveries' past tab reads (older months: not yet shown). */
export const LIST_MONTHS_BACK = 12

/** The lists read by months: the shop planner's needs, the deliveries' orders. */
export type MonthList = 'needs' | 'orders'

/** Months, both inclusive ("2026-12-01"); `to` null: every later month. */
export interface Period {
  from: Month
  to: Month | null
}

/** The address of a period of a list by months. */
export function periodPath(list: MonthList, p: Period): string {
  return `/api/${list}?from=${p.from}${p.to ? `&to=${p.to}` : ''}`
}

/** The address of a period of one shop's needs as a producer sees them. */
export function shopNeedsPath(distributorId: string, p: Period): string {
  return `/api/needs?distributor=${encodeURIComponent(distributorId)}&from=${p.from}${p.to ? `&to=${p.to}` : ''}`
}

/** The period a deliveries' tab shows, from `today` ("YYYY-MM-DD", Paris): the order months its deliveries fall in. */
export function ordersPeriod(
  tab: 'upcoming14' | 'upcoming' | 'done14' | 'done' | 'recent' | 'year',
  today: string,
): Period {
  const day = (n: number) => new Date(Date.parse(`${today}T12:00:00Z`) + n * 86_400_000).toISOString().slice(0, 10)
  const month = (n: number) => monthOf(day(n))
  switch (tab) {
    case 'upcoming14':
    case 'recent': // the reception: a delivery of the weeks around today
      return { from: month(-14), to: month(14) }
    case 'upcoming':
      return { from: month(-14), to: null }
    // A delivery received before its day is past already: the past tabs
    // reach the months ahead too.
    case 'done14':
      return { from: month(-14), to: null }
    case 'done':
    case 'year': // the reception of a delivery not among the recent ones
      return { from: addMonths(month(0), -LIST_MONTHS_BACK), to: null }
  }
}
