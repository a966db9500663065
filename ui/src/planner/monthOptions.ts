// The months the add bar offers: the current month and the 23 after it
// (past months are closed; the daemon takes up to 36 in one bulk add).
import { formatMonthYear } from '../format'
import { addMonths, type Month } from './period'

/** How many months the add bar offers. */
export const ADD_MONTHS = 24

/** Select options {value: "2026-12-01", label: "décembre 2026"} from `current` on. */
export function monthOptions(current: Month, count = ADD_MONTHS): { value: Month; label: string }[] {
  return Array.from({ length: count }, (_, i) => {
    const value = addMonths(current, i)
    return { value, label: formatMonthYear(value) }
  })
}
