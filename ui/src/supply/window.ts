// The window of the supply screen (PRODUCT §2, §9): it starts on the Monday of
// the current week and shows 5 days, 8 on high-density screens; the arrows
// move it by 1 day, 3 on high-density screens.
//
// A high-density screen is one with room for 8 day columns beside the
// product, sales and stock columns: at least HIGH_DENSITY_WIDTH CSS pixels
// wide. Its width decides, never its pixel ratio — a phone has a ratio of 2
// or 3 and the narrowest screen of all (issue 19). Read once when the screen
// opens: turning a tablet does not resize the grid under the user.
import { dayOf } from '../format'

/** PRODUCT §9 supply constants. */
export const SUPPLY_DAYS = 5
export const SUPPLY_DAYS_HIGH_DENSITY = 8
export const SUPPLY_STEP = 1
export const SUPPLY_STEP_HIGH_DENSITY = 3

/** The narrowest screen, in CSS pixels, that shows 8 days. */
export const HIGH_DENSITY_WIDTH = 1280

/** Whether a screen `width` CSS pixels wide counts as high density. */
export function isHighDensity(width: number): boolean {
  return Number.isFinite(width) && width >= HIGH_DENSITY_WIDTH
}

/** Days shown at once. */
export function windowLength(highDensity: boolean): number {
  return highDensity ? SUPPLY_DAYS_HIGH_DENSITY : SUPPLY_DAYS
}

/** Days an arrow moves the window by. */
export function stepSize(highDensity: boolean): number {
  return highDensity ? SUPPLY_STEP_HIGH_DENSITY : SUPPLY_STEP
}

/** The density of this browser's screen. */
export function screenIsHighDensity(): boolean {
  return typeof window !== 'undefined' && isHighDensity(window.innerWidth)
}

function parse(day: string): Date {
  const m = /^(\d{4})-(\d{2})-(\d{2})$/.exec(day)
  if (!m) throw new Error(`not a day: ${day}`)
  return new Date(Date.UTC(Number(m[1]), Number(m[2]) - 1, Number(m[3])))
}

function format(date: Date): string {
  return date.toISOString().slice(0, 10)
}

/** The day `n` days after `day` (before when n < 0), calendar arithmetic. */
export function addDays(day: string, n: number): string {
  const date = parse(day)
  date.setUTCDate(date.getUTCDate() + n)
  return format(date)
}

/** The Monday of `day`'s week (weeks start on Monday, PRODUCT §1). */
export function mondayOf(day: string): string {
  const date = parse(day)
  const fromMonday = (date.getUTCDay() + 6) % 7
  return addDays(day, -fromMonday)
}

/** Today in Europe/Paris. */
export function todayInParis(now: Date = new Date()): string {
  return dayOf(now)
}

/** The start of the current week's window. */
export function currentWeekStart(now: Date = new Date()): string {
  return mondayOf(todayInParis(now))
}

/** The `length` days from `start`. */
export function windowDates(start: string, length: number): string[] {
  return Array.from({ length }, (_, i) => addDays(start, i))
}

/** The start after pressing an arrow: direction -1 (earlier) or +1 (later). */
export function shiftStart(start: string, direction: -1 | 1, step: number): string {
  return addDays(start, direction * step)
}
