package decimal

import (
	"encoding/json"
	"math"
	"strconv"
	"testing"
)

func TestFromFloat(t *testing.T) {
	next := func(f, dir float64) float64 { return math.Nextafter(f, dir) }
	tenth, fifth := 0.1, 0.2 // variables: the constant 0.1+0.2 is exactly 0.3
	tests := []struct {
		name string
		in   float64
		want Dec
		ok   bool
	}{
		{"zero", 0, 0, true},
		{"negative zero", math.Copysign(0, -1), 0, true},
		{"one", 1, 100, true},
		{"a tenth", 0.1, 10, true},
		{"a hundredth", 0.01, 1, true},
		{"two decimals", 12.34, 1234, true},
		{"negative", -2.5, -250, true},
		{"large two decimals", 99999.99, 9999999, true},
		{"largest two decimals under the bound", 999999999999.99, 99999999999999, true},
		{"the bound", 1e12, 100000000000000, true},
		{"minus the bound", -1e12, -100000000000000, true},
		{"12345.675 (kg)", 12345.675, 0, false},
		{"99999.995", 99999.995, 0, false},
		{"5000.004 (pieces)", 5000.004, 0, false},
		{"9999.995 (price)", 9999.995, 0, false},
		{"2.505", 2.505, 0, false},
		{"1.234", 1.234, 0, false},
		{"1.005", 1.005, 0, false},
		{"0.001", 0.001, 0, false},
		{"-0.005", -0.005, 0, false},
		{"0.1+0.2", tenth + fifth, 0, false},
		{"the float after 1", next(1, 2), 0, false},
		{"the float before 100", next(100, 0), 0, false},
		{"smallest float", math.SmallestNonzeroFloat64, 0, false},
		{"over the bound by a hundredth", 1e12 + 0.01, 0, false},
		{"the float after the bound", next(1e12, math.Inf(1)), 0, false},
		{"1e13", 1e13, 0, false},
		{"largest float", math.MaxFloat64, 0, false},
		{"NaN", math.NaN(), 0, false},
		{"+Inf", math.Inf(1), 0, false},
		{"-Inf", math.Inf(-1), 0, false},
	}
	for _, tt := range tests {
		got, ok := FromFloat(tt.in)
		if ok != tt.ok || got != tt.want {
			t.Errorf("%s: FromFloat(%v) = %v, %v; want %v, %v", tt.name, tt.in, int64(got), ok, int64(tt.want), tt.ok)
		}
	}
}

// TestFromFloatAtEveryMagnitude checks the rule against its definition at
// every magnitude: k hundredths, as the float64 nearest k/100 (what a JSON
// decoder reads from its text), are accepted as exactly k; k thousandths
// that are not whole hundredths are refused, however large (up to 15
// significant digits, which every float64 writes back).
func TestFromFloatAtEveryMagnitude(t *testing.T) {
	for scale := int64(1); scale <= 1e14; scale *= 10 {
		for _, m := range []int64{1, 3, 7, 9, 11, 99, 101, 12345, 99999, 123457, 999999} {
			if m > 1e14/scale {
				continue
			}
			k := m * scale
			for _, k := range []int64{k, k - 1, k + 1, -k} {
				if k > 1e14 {
					continue
				}
				f := float64(k) / 100
				if got, ok := FromFloat(f); !ok || int64(got) != k {
					t.Fatalf("FromFloat(%v) = %d, %v; want %d", f, int64(got), ok, k)
				}
				if k3 := k*10 + 5; k3 < 1e15 && k3 > -1e15 {
					f := float64(k3) / 1000
					if got, ok := FromFloat(f); ok {
						t.Fatalf("FromFloat(%v) = %d: three decimals accepted", f, int64(got))
					}
				}
			}
		}
	}
}

func TestFromSpreadsheet(t *testing.T) {
	tenth, fifth := 0.1, 0.2
	noisy := tenth + fifth // 0.30000000000000004, as a formula cell holds it
	tests := []struct {
		in   float64
		want Dec
		ok   bool
	}{
		{12.5, 1250, true}, {noisy, 30, true}, {1.005, 0, false}, {1.234, 0, false},
		{12345.675, 1234568, true}, // within the relative tolerance: rounded (a cell's noise)
		{math.NaN(), 0, false}, {math.Inf(-1), 0, false}, {1e13, 0, false},
	}
	for _, tt := range tests {
		got, ok := FromSpreadsheet(tt.in)
		if ok != tt.ok || (ok && got != tt.want) {
			t.Errorf("FromSpreadsheet(%v) = %v, %v; want %v, %v", tt.in, got, ok, tt.want, tt.ok)
		}
	}
}

func TestFormatting(t *testing.T) {
	tests := []struct {
		d             Dec
		plain, french string
	}{
		{1250, "12.5", "12,50"}, {300, "3", "3,00"}, {-25, "-0.25", "-0,25"},
		{123456789, "1234567.89", "1\u202f234\u202f567,89"}, {0, "0", "0,00"},
	}
	for _, tt := range tests {
		if tt.d.String() != tt.plain || tt.d.French() != tt.french {
			t.Errorf("%d: %q %q", tt.d, tt.d.String(), tt.d.French())
		}
	}
}

// TestPlainMatchesShortestFloat checks the integer formatting against the
// shortest float formatting it replaced, over the magnitudes Primeur uses.
func TestPlainMatchesShortestFloat(t *testing.T) {
	check := func(d Dec) {
		want := strconv.FormatFloat(float64(d)/100, 'f', -1, 64)
		if got := d.String(); got != want {
			t.Fatalf("%d: %q, want %q", int64(d), got, want)
		}
		if b, _ := d.MarshalJSON(); string(b) != want {
			t.Fatalf("%d: JSON %s, want %s", int64(d), b, want)
		}
	}
	for d := Dec(-100_000); d <= 100_000; d++ {
		check(d)
	}
	for _, d := range []Dec{1_000_000_00, 1_000_000_01, -99_999_999_99, 123_456_789_012, 900_000_000_000_007, -900_000_000_000_070} {
		check(d)
	}
	// Beyond 2^53 hundredths floats lose digits; the integer form stays exact.
	if got := Dec(math.MaxInt64).String(); got != "92233720368547758.07" {
		t.Fatalf("MaxInt64: %q", got)
	}
	if got := Dec(math.MinInt64).String(); got != "-92233720368547758.08" {
		t.Fatalf("MinInt64: %q", got)
	}
}

func TestJSON(t *testing.T) {
	tests := []struct {
		text string
		want Dec
		ok   bool
	}{
		{"12.5", 1250, true}, {"0.1", 10, true}, {"-0", 0, true}, {"-0.0", 0, true}, {"0.10", 10, true},
		{"1e2", 10000, true}, {"1.5E1", 1500, true}, {"1.25e+1", 1250, true}, {"125e-2", 125, true}, {"1E-2", 1, true},
		{"1e12", 100000000000000, true}, {"-1e12", -100000000000000, true},
		{"1.234", 0, false}, {"2.505", 0, false}, {"12345.675", 0, false}, {"99999.995", 0, false},
		{"9999.995", 0, false}, {"5000.004", 0, false}, {"1e-3", 0, false}, {"1.23456e2", 0, false},
		{"1000000000000.01", 0, false}, {"1e13", 0, false}, {"1e400", 0, false},
		// Beyond float64's precision the text is read as the float64 it
		// denotes: these two are 0.1 and 2.5 to every JSON decoder.
		{"0.1000000000000000000001", 10, true}, {"2.50000000000000000001", 250, true},
		// And these denote floats whose shortest text has more decimals.
		{"1.0000000000000002", 0, false}, {"0.30000000000000004", 0, false},
		{"123456789012.345678", 0, false},
	}
	for _, tt := range tests {
		var v struct{ Q Dec }
		err := json.Unmarshal([]byte(`{"Q": `+tt.text+`}`), &v)
		if (err == nil) != tt.ok || (tt.ok && v.Q != tt.want) {
			t.Errorf("%s: %d, %v; want %d, ok %v", tt.text, int64(v.Q), err, int64(tt.want), tt.ok)
		}
	}
	b, _ := json.Marshal(struct{ Q Dec }{1250})
	if string(b) != `{"Q":12.5}` {
		t.Fatal(string(b))
	}
}

// TestScan: what database/sql gives an int64 destination — an integer,
// the decimal text of one (PostgreSQL's numeric, as bytes), a float64
// whose shortest text is an integer — and nothing else.
func TestScan(t *testing.T) {
	tests := []struct {
		src  any
		want Dec
		ok   bool
	}{
		{int64(1250), 1250, true}, {int64(-7), -7, true}, {int64(math.MaxInt64), math.MaxInt64, true},
		{[]byte("123456"), 123456, true}, {"-42", -42, true}, {float64(300), 300, true}, {float64(-5), -5, true},
		{[]byte("12.5"), 0, false}, {"1e3", 0, false}, {"", 0, false}, {float64(1.5), 0, false},
		{float64(1e21), 0, false}, {nil, 0, false}, {true, 0, false}, {[]byte("99999999999999999999"), 0, false},
	}
	for _, tt := range tests {
		d := Dec(99)
		err := d.Scan(tt.src)
		if (err == nil) != tt.ok || (tt.ok && d != tt.want) {
			t.Errorf("Scan(%#v) = %d, %v; want %d, ok %v", tt.src, int64(d), err, int64(tt.want), tt.ok)
		}
	}
}

func TestMulDiv(t *testing.T) {
	if got := MulDiv(333, 1, 3); got != 111 {
		t.Fatal(got)
	}
	if got := MulDiv(1050, 55, 1000); got != 58 { // 10.50 € × 5.5 % = 0.5775 → 0.58
		t.Fatal(got)
	}
}

func TestRoundShortest(t *testing.T) {
	tests := []struct {
		in   float64
		want Dec
		ok   bool
	}{
		{38.583333333333336, 3858, true},
		{2.675, 268, true}, // binary 2.67499…: its text is 2.675
		{2.665, 267, true},
		{0.004, 0, true},
		{0.005, 1, true},
		{12, 1200, true},
		{-1.005, -101, true},
		{1e12, 100 * 1e12, true},
		{1e13, 0, false},
		{math.NaN(), 0, false},
		{math.Inf(1), 0, false},
	}
	for _, tt := range tests {
		got, ok := RoundShortest(tt.in)
		if got != tt.want || ok != tt.ok {
			t.Errorf("RoundShortest(%v) = %v %v, want %v %v", tt.in, got, ok, tt.want, tt.ok)
		}
	}
}
