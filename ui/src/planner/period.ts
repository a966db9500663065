// The planner's period (PRODUCT §2 "Needs planner", §9): a run of months
// starting at `start`, 8 long when the window is landscape (width ≥ height)
// and 3 otherwise. The previous/next buttons move it by half the span and
// "Aujourd'hui" puts the current month first again. Months are the strings
// needs carry, the first day of the month: "2026-12-01".
import { dayOf } from '../format'

/** A month as needs carry it: "YYYY-MM-01". */
export type Month = string

/** Span in a landscape window (width ≥ height). */
export const LANDSCAPE_SPAN = 8
/** Span in a portrait window. */
export const PORTRAIT_SPAN = 3

/** The number of months shown for a window of this size. */
export function spanFor(width: number, height: number): number {
  return width >= height ? LANDSCAPE_SPAN : PORTRAIT_SPAN
}

/**
 * How far the previous/next buttons move: half the span, rounded to the
 * nearest month, halves up (8 → 4, 3 → 2), never less than one month.
 */
export function periodStep(span: number): number {
  return Math.max(1, Math.round(span / 2))
}

/** The month of a "YYYY-MM-DD" day (or of a month string): "2026-12-24" → "2026-12-01". */
export function monthOf(day: string): Month {
  return `${day.slice(0, 7)}-01`
}

/** The current month in Europe/Paris. */
export function currentMonth(now: Date = new Date()): Month {
  return monthOf(dayOf(now))
}

/** `month` moved by `n` months (negative goes back): ("2026-12-01", 1) → "2027-01-01". */
export function addMonths(month: Month, n: number): Month {
  const index = Number(month.slice(0, 4)) * 12 + Number(month.slice(5, 7)) - 1 + n
  const year = Math.floor(index / 12)
  const m = index - year * 12 + 1
  return `${String(year).padStart(4, '0')}-${String(m).padStart(2, '0')}-01`
}

/** The `span` months from `start`, in order. */
export function periodMonths(start: Month, span: number): Month[] {
  return Array.from({ length: span }, (_, i) => addMonths(start, i))
}

/** The start of the previous (-1) or next (+1) period. */
export function movePeriod(start: Month, span: number, direction: -1 | 1): Month {
  return addMonths(start, direction * periodStep(span))
}

/** Whether `month` is before the current month (its needs can no longer change). */
export function isPastMonth(month: Month, current: Month): boolean {
  return month < current
}
