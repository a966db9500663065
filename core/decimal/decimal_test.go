package decimal

import (
	"encoding/json"
	"math"
	"strconv"
	"testing"
)

func TestFromFloat(t *testing.T) {
	tests := []struct {
		in   float64
		want Dec
		ok   bool
	}{
		{0, 0, true}, {1, 100, true}, {0.1, 10, true}, {12.34, 1234, true},
		{-2.5, -250, true}, {1.005, 0, false}, {0.001, 0, false},
		{math.NaN(), 0, false}, {math.Inf(1), 0, false}, {1e13, 0, false},
		{99999.99, 9999999, true},
	}
	for _, tt := range tests {
		got, ok := FromFloat(tt.in)
		if ok != tt.ok || (ok && got != tt.want) {
			t.Errorf("FromFloat(%v) = %v, %v; want %v, %v", tt.in, got, ok, tt.want, tt.ok)
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
	var v struct{ Q Dec }
	if err := json.Unmarshal([]byte(`{"Q": 12.5}`), &v); err != nil || v.Q != 1250 {
		t.Fatalf("%v %v", v.Q, err)
	}
	if err := json.Unmarshal([]byte(`{"Q": 1.234}`), &v); err == nil {
		t.Fatal("three decimals accepted")
	}
	b, _ := json.Marshal(v)
	if string(b) != `{"Q":12.5}` {
		t.Fatal(string(b))
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
