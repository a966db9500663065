package sheets

// ShiftFormula and Analyse open formula.go's reading to the tests.
func ShiftFormula(formula string, dCol, dRow int) (string, bool) {
	return shiftFormula(formula, dCol, dRow)
}

// Analyse returns a formula's references ("Sheet!B2:C3", "!B2:B2" on its
// own sheet) and why it cannot be computed ("" when it can).
func Analyse(formula string) ([]string, string) {
	a := analyse(formula)
	var refs []string
	for _, r := range a.refs {
		refs = append(refs, r.sheet+"!"+CellName(r.c1, r.r1)+":"+CellName(r.c2, r.r2))
	}
	return refs, a.bad
}
