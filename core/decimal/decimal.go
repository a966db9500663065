// Package decimal holds Dec, the fixed-point number Primeur stores for
// quantities (hundredths of a kg or of a piece) and money (cents). The API
// speaks plain JSON numbers with at most two decimals.
//
// The decimal rule, the same for every magnitude: a number sent to Primeur
// is the float64 its JSON text denotes (what every JSON decoder reads, the
// browser's included), and its decimals are those of the shortest decimal
// text that reads back to that same float64 (strconv.FormatFloat with
// precision -1; JavaScript's String(n)). A number whose shortest text has more than
// two decimals is refused, never rounded: 12345.675, 99999.995, 2.505 and
// 1.234 are all refused, 0.1 is 0.10. The check is exact (the shortest
// text's digits, in integer arithmetic), with no tolerance. A text with
// more significant digits than a float64 holds is read as the float64 it
// denotes, as the client's own JSON encoder would have written it:
// 0.1000000000000000001 is 0.1. FromFloat applies the rule: every API
// path that reads a quantity, a price or an amount, and Dec's own JSON
// reader, go through it. The UI's forms apply it to the text typed
// (ui/src/validation/decimal.ts).
//
// Spreadsheet cells are not API input: a cell computed by a formula holds
// binary noise (0.30000000000000004), so the Excel import reads cells with
// FromSpreadsheet, which keeps its own tolerance.
package decimal

import (
	"errors"
	"fmt"
	"math"
	"strconv"
	"strings"
)

// Dec is a number in hundredths: 1250 is 12.50.
type Dec int64

// Hundred is 1.00.
const Hundred Dec = 100

// maxAbs bounds what FromFloat accepts: a trillion, far above any real
// quantity or price, and well inside float64's exact integers.
const maxAbs = 1e12

// Max is the largest magnitude FromFloat accepts, a trillion units.
const Max Dec = 100 * maxAbs

// FromFloat converts f when it is finite, within ±1e12 and has at most two
// decimals by the package's rule (the shortest text that reads back to f);
// ok is false otherwise. Negative zero is 0.
func FromFloat(f float64) (d Dec, ok bool) {
	if math.IsNaN(f) || math.IsInf(f, 0) || math.Abs(f) > maxAbs {
		return 0, false
	}
	if f == 0 {
		return 0, true
	}
	// The shortest digits and exponent: "-1.2345675e+04" for 12345.675.
	s := strconv.FormatFloat(f, 'e', -1, 64)
	neg := s[0] == '-'
	if neg {
		s = s[1:]
	}
	e := strings.IndexByte(s, 'e')
	exp, err := strconv.Atoi(s[e+1:])
	if err != nil {
		return 0, false
	}
	digits := strings.Replace(s[:e], ".", "", 1)
	// The value is digits × 10^(exp+1-len(digits)), so in hundredths
	// digits × 10^shift: a negative shift means more than two decimals.
	shift := exp + 3 - len(digits)
	if shift < 0 {
		return 0, false
	}
	var h int64
	for _, c := range digits {
		h = h*10 + int64(c-'0')
	}
	for range shift {
		h *= 10
	}
	if h > int64(Max) {
		return 0, false
	}
	if neg {
		h = -h
	}
	return Dec(h), true
}

// spreadsheetTolerance is how far from a whole number of hundredths a
// spreadsheet cell may be, relative to its magnitude.
const spreadsheetTolerance = 1e-6

// FromSpreadsheet converts the number of a spreadsheet cell: finite,
// within ±1e12, and within a relative 1e-6 of a whole number of
// hundredths, which it is rounded to. Cells computed by formulas carry
// binary noise (0.1+0.2 is stored as 0.30000000000000004), which this
// absorbs; it is for the Excel import only, never for what the API
// receives (FromFloat).
func FromSpreadsheet(f float64) (d Dec, ok bool) {
	if math.IsNaN(f) || math.IsInf(f, 0) || math.Abs(f) > maxAbs {
		return 0, false
	}
	h := f * 100
	r := math.Round(h)
	if math.Abs(h-r) > spreadsheetTolerance*math.Max(1, math.Abs(h)) {
		return 0, false
	}
	return Dec(r), true
}

// RoundShortest converts f rounded half away from zero to two decimals,
// the decimals being those of f's shortest text (2.675 → 2.68, where
// Round, multiplying the binary value, gives 2.67): a spreadsheet's value
// rounded as the person who sees it would round it. ok is false when f is
// not finite or beyond ±1e12.
func RoundShortest(f float64) (d Dec, ok bool) {
	if math.IsNaN(f) || math.IsInf(f, 0) || math.Abs(f) > maxAbs {
		return 0, false
	}
	s := strconv.FormatFloat(math.Abs(f), 'f', -1, 64)
	whole, frac, _ := strings.Cut(s, ".")
	frac += "000"
	h, err := strconv.ParseInt(whole+frac[:2], 10, 64)
	if err != nil {
		return 0, false
	}
	if frac[2] >= '5' {
		h++
	}
	if f < 0 {
		h = -h
	}
	return Dec(h), true
}

// Round converts f rounded half away from zero to two decimals.
func Round(f float64) Dec {
	return Dec(math.Round(f * 100))
}

// FromInt returns n units.
func FromInt(n int64) Dec { return Dec(n * 100) }

// Float returns d as a float64.
func (d Dec) Float() float64 { return float64(d) / 100 }

// IsWhole reports whether d has no decimals.
func (d Dec) IsWhole() bool { return d%100 == 0 }

// String renders d with a dot and no trailing zeros: "12.5", "3", "-0.25".
func (d Dec) String() string {
	return string(d.appendPlain(make([]byte, 0, 24)))
}

// appendPlain appends d as String writes it, with integer arithmetic only
// (JSON responses write thousands of quantities and prices).
func (d Dec) appendPlain(b []byte) []byte {
	u := uint64(d)
	if d < 0 {
		b = append(b, '-')
		u = -u
	}
	b = strconv.AppendUint(b, u/100, 10)
	switch cents := u % 100; {
	case cents == 0:
	case cents%10 == 0:
		b = append(b, '.', byte('0'+cents/10))
	default:
		b = append(b, '.', byte('0'+cents/10), byte('0'+cents%10))
	}
	return b
}

// French renders d the French way with exactly two decimals and a comma,
// thousands separated by a narrow no-break space: "1 234,50".
func (d Dec) French() string {
	neg := d < 0
	if neg {
		d = -d
	}
	units := strconv.FormatInt(int64(d/100), 10)
	var b strings.Builder
	for i, c := range units {
		if i > 0 && (len(units)-i)%3 == 0 {
			b.WriteString("\u202f")
		}
		b.WriteRune(c)
	}
	s := fmt.Sprintf("%s,%02d", b.String(), int64(d%100))
	if neg {
		s = "-" + s
	}
	return s
}

// MarshalJSON writes d as a JSON number.
func (d Dec) MarshalJSON() ([]byte, error) {
	return d.appendPlain(make([]byte, 0, 24)), nil
}

// Scan reads a stored Dec, as database/sql would into an int64 but
// without reflection (the user load and every other read of quantities
// and prices scan thousands): an integer, or its decimal text (PostgreSQL's
// numeric results). NULL is refused; a nullable column is read into a
// *Dec, left nil.
func (d *Dec) Scan(src any) error {
	switch v := src.(type) {
	case int64:
		*d = Dec(v)
		return nil
	case []byte:
		return d.scanText(string(v))
	case string:
		return d.scanText(v)
	case float64:
		// What database/sql does with a float64 into an int64: its
		// shortest text, read as an integer.
		return d.scanText(strconv.FormatFloat(v, 'g', -1, 64))
	case nil:
		return errors.New("decimal: scan: NULL is not a number")
	}
	return fmt.Errorf("decimal: scan: unsupported %T", src)
}

func (d *Dec) scanText(s string) error {
	n, err := strconv.ParseInt(s, 10, 64)
	if err != nil {
		return fmt.Errorf("decimal: scan %q: %w", s, err)
	}
	*d = Dec(n)
	return nil
}

// UnmarshalJSON reads a JSON number with at most two decimals, by the
// package's rule (FromFloat on the float64 the text denotes).
func (d *Dec) UnmarshalJSON(b []byte) error {
	f, err := strconv.ParseFloat(string(b), 64)
	if err != nil {
		return fmt.Errorf("decimal: %s is not a number", b)
	}
	v, ok := FromFloat(f)
	if !ok {
		return fmt.Errorf("decimal: %s has more than two decimals or is out of range", b)
	}
	*d = v
	return nil
}

// MulDiv returns d × num / den rounded half away from zero, without
// overflow for Primeur's magnitudes (quantities × cents).
func MulDiv(d Dec, num, den int64) Dec {
	p := float64(d) * float64(num) / float64(den)
	return Dec(math.Round(p))
}
