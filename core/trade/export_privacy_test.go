package trade

import "primeur/core/decimal"

// Cell is the sums behind one price figure (price_cells), for the tests
// of the privacy rule.
type Cell = cell

// Shown is cell.shown: whether a figure of c may be shown.
func Shown(c Cell) bool { return c.shown() }

// Average is the figure of amount over quantity, rounded as shown.
func Average(amount, quantity int64) decimal.Dec { return average(amount, quantity) }

// LargestSQL is the statement that reads cells' largest entities again,
// before its conditions.
const LargestSQL = largestSQL
