package planning

import (
	"math"
	"strconv"
	"strings"
	"unicode"

	"primeur/core/catalog"
)

// unitOf reads a unit as a shop writes it: kilograms ("kg", "kilos",
// "kilogrammes"), litres ("l", "litres"), pieces ("un", "u", "unité",
// "pièce", "pce", "pc"), dozens ("douzaines", "dz"), bunches ("botte"),
// trays ("barquette"), bottles ("bouteille", "btl") or jars ("pot"); ok is
// false for anything else.
func unitOf(s string) (string, bool) {
	u, ok := unitWords[catalog.NameKey(s)]
	return u, ok
}

// unitWords are the words unitOf reads, by catalog.NameKey.
var unitWords = map[string]string{
	"kg": catalog.Kg, "kgs": catalog.Kg, "kilo": catalog.Kg, "kilos": catalog.Kg, "kilogramme": catalog.Kg,
	"kilogrammes": catalog.Kg,
	"l":           catalog.Litre, "lt": catalog.Litre, "ltr": catalog.Litre, "litre": catalog.Litre, "litres": catalog.Litre,
	"un": catalog.Piece, "u": catalog.Piece, "unite": catalog.Piece, "unites": catalog.Piece, "piece": catalog.Piece,
	"pieces": catalog.Piece, "pce": catalog.Piece, "pces": catalog.Piece, "pc": catalog.Piece, "pcs": catalog.Piece,
	"douzaine": catalog.Dozen, "douzaines": catalog.Dozen, "dz": catalog.Dozen, "dzn": catalog.Dozen,
	"botte": catalog.Bunch, "bottes": catalog.Bunch, "bte": catalog.Bunch,
	"barquette": catalog.Tray, "barquettes": catalog.Tray, "barq": catalog.Tray,
	"bouteille": catalog.Bottle, "bouteilles": catalog.Bottle, "btl": catalog.Bottle, "bout": catalog.Bottle,
	"pot": catalog.Jar, "pots": catalog.Jar,
}

// sameUnit reports whether a unit a file gives is the product's: the same,
// or bunches for a product counted in pieces, as the catalogue's first
// bunches were ("Radis (botte)", in pieces).
func sameUnit(file, product string) bool {
	return file == product || file == catalog.Bunch && product == catalog.Piece
}

// unitName names a unit in a refusal: "kilogrammes (kg)", "douzaines".
func unitName(unit string) string { return catalog.UnitName(unit) }

// cellValue is what a quantity cell says.
type cellValue int

const (
	valueNone   cellValue = iota // empty: nothing to write
	valueNumber                  // a number (maybe with its unit)
	valueZero                    // "-", "NC", "néant": no need this month, as 0
	valueText                    // anything else: a problem
	valueError                   // a formula's error (#DIV/0!, #REF!…)
)

// formulaErrors are the error values a formula cell may hold, as Excel
// writes them in English and in French (a CSV holds them as text).
var formulaErrors = map[string]bool{
	"#DIV/0!": true, "#N/A": true, "#NAME?": true, "#NULL!": true, "#NUM!": true, "#REF!": true,
	"#VALUE!": true, "#CALC!": true, "#SPILL!": true, "#GETTING_DATA": true, "#FIELD!": true, "#BLOCKED!": true,
	"#NOM?": true, "#NUL!": true, "#NOMBRE!": true, "#VALEUR!": true, "#CALCUL!": true, "#PROPAGATION!": true,
	"#CHAMP!": true, "#BLOQUE!": true, "#BLOQUÉ!": true,
}

// isFormulaError reports an error value: Excel's, or LibreOffice's
// "Err:502" and "Err502".
func isFormulaError(s string) bool {
	u := strings.ToUpper(s)
	if formulaErrors[u] {
		return true
	}
	digits := strings.TrimPrefix(strings.TrimPrefix(u, "ERR"), ":")
	if len(u) > 3 && strings.HasPrefix(u, "ERR") && len(digits) == 3 {
		for _, c := range digits {
			if c < '0' || c > '9' {
				return false
			}
		}
		return true
	}
	return false
}

// readValue reads a quantity cell as a shop fills it: a number cell, or
// text in French habits — a decimal comma ("12,5"), thousands separated by
// spaces (ordinary, no-break or narrow no-break: "1 200"), spaces around,
// a unit after the number ("12 kg"); "-", "NC", "n/c" and "néant" mean no
// need (as 0). It returns the number and the unit written after it, if
// any.
func readValue(raw string) (f float64, unit string, v cellValue) {
	// Most cells are number cells: their raw value reads as is.
	if f, ok := parseNumber(raw); ok {
		return f, "", valueNumber
	}
	s := strings.TrimFunc(raw, isSpace)
	switch {
	case s == "":
		return 0, "", valueNone
	case isFormulaError(s):
		return 0, "", valueError
	case strings.Trim(s, "-–—") == "":
		return 0, "", valueZero
	}
	switch catalog.NameKey(s) {
	case "nc", "n c", "neant", "aucun", "rien":
		return 0, "", valueZero
	}
	compact := strings.Map(func(r rune) rune {
		if isSpace(r) {
			return -1
		}
		return r
	}, s)
	// A unit after the number: "12kg", "3 pièces".
	end := len(compact)
	for end > 0 && unicode.IsLetter(rune(compact[end-1])) || end > 0 && compact[end-1] >= 0x80 {
		end--
	}
	if end < len(compact) {
		if u, ok := unitOf(compact[end:]); ok && end > 0 {
			unit, compact = u, compact[:end]
		} else if end > 0 {
			return 0, "", valueText
		}
	}
	// "1.200,50": dots before the decimal comma separate thousands.
	if c := strings.LastIndexByte(compact, ','); c >= 0 && strings.IndexByte(compact, '.') >= 0 && strings.IndexByte(compact, '.') < c {
		compact = strings.ReplaceAll(compact[:c], ".", "") + compact[c:]
	}
	f, ok := parseNumber(compact)
	if !ok {
		return 0, "", valueText
	}
	return f, unit, valueNumber
}

// isSpace reports spaces of any kind, the no-break ones of French number
// formats included.
func isSpace(r rune) bool {
	return unicode.IsSpace(r) || r == '\u00a0' || r == '\u202f' || r == '\u2007' || r == '\u2009'
}

// parseNumber reads a decimal number as a cell holds it: "12", "12.5",
// "1.25E+2" for a number cell, and also "12,5" for a number typed as text
// the French way. Anything else (words, hexadecimal, NaN, Inf) is refused.
func parseNumber(s string) (float64, bool) {
	digits, dot, exp := 0, false, false
	for i := 0; i < len(s); i++ {
		switch c := s[i]; {
		case c >= '0' && c <= '9':
			digits++
		case (c == '.' || c == ',') && !dot && !exp:
			dot = true
		case (c == '-' || c == '+') && (i == 0 || s[i-1] == 'e' || s[i-1] == 'E'):
		case (c == 'e' || c == 'E') && !exp && digits > 0:
			exp = true
		default:
			return 0, false
		}
	}
	if digits == 0 {
		return 0, false
	}
	f, err := strconv.ParseFloat(strings.Replace(s, ",", ".", 1), 64)
	if err != nil || math.IsInf(f, 0) {
		return 0, false
	}
	return f, true
}
