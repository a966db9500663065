// Package decimal holds Dec, the fixed-point number Primeur stores for
// quantities (hundredths of a kg or of a piece) and money (cents). The API
// speaks plain JSON numbers with at most two decimals.
package decimal

import (
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

// FromFloat converts f when it is finite, within ±1e12 and has at most two
// decimals; ok is false otherwise.
func FromFloat(f float64) (d Dec, ok bool) {
	if math.IsNaN(f) || math.IsInf(f, 0) || math.Abs(f) > maxAbs {
		return 0, false
	}
	h := f * 100
	r := math.Round(h)
	if math.Abs(h-r) > 1e-6*math.Max(1, math.Abs(h)) {
		return 0, false
	}
	return Dec(r), true
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

// UnmarshalJSON reads a JSON number with at most two decimals.
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
