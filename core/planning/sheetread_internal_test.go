package planning

import (
	"testing"
)

func TestReadMonth(t *testing.T) {
	tests := []struct {
		raw  string
		want string // "2027-01-01", or the kind when not a month
		kind monthHeader
	}{
		{"46388", "2027-01-01", isMonth}, // a date cell, 2027-01-01
		{"46418.5", "2027-01-01", isMonth},
		{"2027-01-01T00:00:00", "2027-01-01", isMonth},
		{"2027-01", "2027-01-01", isMonth},
		{"2027-01-15", "2027-01-01", isMonth},
		{"01/2027", "2027-01-01", isMonth},
		{"1/2027", "2027-01-01", isMonth},
		{"01/01/2027", "2027-01-01", isMonth},
		{"15/03/2027", "2027-03-01", isMonth},
		{"1/1/27", "2027-01-01", isMonth},
		{"janvier 2027", "2027-01-01", isMonth},
		{"Janvier 2027", "2027-01-01", isMonth},
		{"JANV. 2027", "2027-01-01", isMonth},
		{"janv.-27", "2027-01-01", isMonth},
		{"Jan-27", "2027-01-01", isMonth},
		{"févr. 2027", "2027-02-01", isMonth},
		{"fevrier 2027", "2027-02-01", isMonth},
		{"Feb 2027", "2027-02-01", isMonth},
		{"mars 2027", "2027-03-01", isMonth},
		{"avr. 2027", "2027-04-01", isMonth},
		{"mai 2027", "2027-05-01", isMonth},
		{"juin 2027", "2027-06-01", isMonth},
		{"juil. 2027", "2027-07-01", isMonth},
		{"août 2027", "2027-08-01", isMonth},
		{"aout 2027", "2027-08-01", isMonth},
		{"sept. 2027", "2027-09-01", isMonth},
		{"oct 2027", "2027-10-01", isMonth},
		{"nov. 2027", "2027-11-01", isMonth},
		{"déc. 2027", "2027-12-01", isMonth},
		{"  décembre   2027 ", "2027-12-01", isMonth},
		{"jui 2027", "", badMonth}, // juin or juillet
		{"décembre", "", noYearYet},
		{"13/2027", "", badMonth},
		{"31/02/2027", "", badMonth},
		{"2027-13", "", badMonth},
		{"12", "", badMonth},
		{"1999-12", "", badMonth},
		{"janvier 1999", "", badMonth},
		{"janvier 27 28", "", badMonth},
		{"Total", "", notMonth},
		{"Remarques", "", notMonth},
		{"Prix 2027", "", notMonth},
		{"", "", notMonth},
	}
	for _, tt := range tests {
		m, kind := readMonth(tt.raw, false)
		if kind != tt.kind || kind == isMonth && m.String() != tt.want {
			t.Errorf("readMonth(%q) = %s %d, want %s %d", tt.raw, m, kind, tt.want, tt.kind)
		}
	}
	// A workbook counting from 1904: the same serial is four years later.
	if m, kind := readMonth("44926", true); kind != isMonth || m.String() != "2027-01-01" {
		t.Errorf("1904 serial: %s %d", m, kind)
	}
}

func TestReadValue(t *testing.T) {
	tests := []struct {
		raw  string
		f    float64
		unit string
		v    cellValue
	}{
		{"", 0, "", valueNone},
		{"   ", 0, "", valueNone},
		{"12", 12, "", valueNumber},
		{"12.5", 12.5, "", valueNumber},
		{"12,5", 12.5, "", valueNumber},
		{" 12,5 ", 12.5, "", valueNumber},
		{"1 200", 1200, "", valueNumber},
		{"1\u00a0200", 1200, "", valueNumber},
		{"1\u202f200,50", 1200.5, "", valueNumber},
		{"1.200,50", 1200.5, "", valueNumber},
		{"1.25E+2", 125, "", valueNumber},
		{"38.583333333333336", 38.583333333333336, "", valueNumber},
		{"12 kg", 12, "kg", valueNumber},
		{"12kg", 12, "kg", valueNumber},
		{"3 pièces", 3, "un", valueNumber},
		{"-3", -3, "", valueNumber},
		{"-", 0, "", valueZero},
		{"–", 0, "", valueZero},
		{"NC", 0, "", valueZero},
		{"n/c", 0, "", valueZero},
		{"néant", 0, "", valueZero},
		{"Néant", 0, "", valueZero},
		{"douze", 0, "", valueText},
		{"12 cageots", 0, "", valueText},
		{"0x10", 0, "", valueText},
		{"NaN", 0, "", valueText},
		{"1,2,3", 0, "", valueText},
		{"#DIV/0!", 0, "", valueError},
		{"#REF!", 0, "", valueError},
	}
	for _, tt := range tests {
		f, unit, v := readValue(tt.raw)
		if v != tt.v || f != tt.f || unit != tt.unit {
			t.Errorf("readValue(%q) = %v %q %d, want %v %q %d", tt.raw, f, unit, v, tt.f, tt.unit, tt.v)
		}
	}
}
