// Links to one need (PRODUCT §13 "Notifications": the emails link to what
// they tell), pure: /dis/needs?need=ID for the shop, /prod/needs/SHOP?need=ID
// for a producer. Once the planner's needs hold that need, the planner
// selects its cell — the right pane shows it — and moves its period so that
// the need's month is visible: kept when it already is, else starting at
// that month. An id the needs do not hold changes nothing.
import type { CellKey, NeedRO } from './model'
import { type Month, monthOf, periodMonths } from './period'

/** The query parameter naming the need. */
export const NEED_PARAM = 'need'

/** The need id of a planner URL's query ("need=abc", with or without "?"), or null. */
export function linkedNeedId(search: string): string | null {
  const id = new URLSearchParams(search).get(NEED_PARAM)?.trim()
  return id ? id : null
}

/** The start of a period of `span` months showing `month`: `start` when it already does, else `month`. */
export function startShowing(start: Month, span: number, month: Month): Month {
  return periodMonths(start, span).includes(month) ? start : month
}

/** Where a link to the need `id` puts the planner, or null while the needs do not hold it. */
export function linkedCell(
  needs: readonly NeedRO[],
  id: string,
  start: Month,
  span: number,
): { selection: CellKey; start: Month } | null {
  const need = needs.find((n) => n._id === id)
  if (!need) return null
  const month = monthOf(need.date)
  return { selection: { product: need.product, month }, start: startShowing(start, span, month) }
}
