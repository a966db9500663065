package sheets

import (
	"sort"
	"strconv"
	"strings"
	"unicode"
	"unicode/utf8"
)

// Formulas of an .xlsx as written in its XML (A1 references, English
// function names, "," between arguments). A formula without a stored
// result is computed only when it is read, token by token, as one of the
// constructs listed here — the references (a cell, a range, on its own
// sheet or another) and the functions and operators whose results agree
// with LibreOffice's (calc_test.go's differential test): anything else —
// defined names, whole rows or columns, other workbooks, 3D references,
// array constants, structured references, volatile or reference-making
// functions (OFFSET, INDIRECT, TODAY…), a function excelize computes
// differently — makes it uncomputable, and the caller refuses it.

// computable are the functions a formula without a stored result may use.
// Each is in the differential corpus (calc_test.go: every function listed
// here appears there, and agrees with LibreOffice on every case).
var computable = map[string]bool{
	"ABS": true, "AND": true, "AVERAGE": true, "CEILING": true, "CHOOSE": true, "CONCATENATE": true,
	"COUNT": true, "COUNTA": true, "COUNTIF": true, "DATE": true, "DAY": true, "FLOOR": true,
	"HLOOKUP": true, "IF": true, "IFERROR": true, "INDEX": true, "INT": true, "LEFT": true, "LEN": true,
	"MATCH": true, "MAX": true, "MIN": true, "MOD": true, "MONTH": true, "MROUND": true, "NOT": true, "OR": true,
	"POWER": true, "PRODUCT": true, "RIGHT": true, "ROUND": true, "ROUNDDOWN": true, "ROUNDUP": true,
	"SQRT": true, "SUBTOTAL": true, "SUM": true, "SUMIF": true, "SUMPRODUCT": true, "TRUNC": true,
	"VALUE": true, "VLOOKUP": true, "YEAR": true,
}

// errorLiterals are the error values a formula may write.
var errorLiterals = []string{"#NULL!", "#DIV/0!", "#VALUE!", "#REF!", "#NAME?", "#NUM!", "#N/A"}

// reference is a cell or a range a formula refers to.
type reference struct {
	sheet          string // the sheet's name, "" for the formula's own
	c1, r1, c2, r2 int
	abs            [4]bool // $ before c1, r1, c2, r2
	start, end     int     // where the cells' part is in the text
}

// formulaToken is one token of a formula.
type formulaToken struct {
	kind  tokenKind
	text  string
	ref   reference
	space bool // whitespace came before it
}

type tokenKind uint8

const (
	tokRef tokenKind = iota
	tokFunc
	tokNumber
	tokString
	tokBool
	tokError
	tokOp
	tokOpen
	tokClose
	tokComma
)

// analysis is what a formula refers to, or why it cannot be computed.
type analysis struct {
	refs []reference
	bad  string // "" when every construct is computable
}

// textArguments are the functions a text literal may be given to: as a
// value, a criterion, a key looked up. Elsewhere ("SUM(\"12\",3)")
// Excel, LibreOffice and excelize read it differently.
var textArguments = map[string]bool{
	"IF": true, "IFERROR": true, "CHOOSE": true, "COUNTIF": true, "SUMIF": true, "VLOOKUP": true,
	"HLOOKUP": true, "MATCH": true, "CONCATENATE": true, "LEFT": true, "RIGHT": true, "LEN": true, "VALUE": true,
}

// analyse reads a formula: the references it makes, and whether each of
// its constructs is computable.
func analyse(formula string) analysis {
	tokens, bad := tokenize(formula)
	if bad != "" {
		return analysis{bad: bad}
	}
	var out analysis
	// The open parentheses: the function each belongs to ("" at the top
	// level; a grouping parenthesis belongs to its enclosing function).
	type paren struct {
		function string
		call     bool
	}
	var parens []paren
	enclosing := func() string {
		if len(parens) == 0 {
			return ""
		}
		return parens[len(parens)-1].function
	}
	prev := tokenKind(255)
	for i, t := range tokens {
		if t.space && i > 0 && operand(prev) && (t.kind == tokRef || t.kind == tokFunc || t.kind == tokOpen) {
			return analysis{bad: "intersection"}
		}
		switch t.kind {
		case tokRef:
			out.refs = append(out.refs, t.ref)
		case tokFunc:
			name := strings.ToUpper(t.text)
			if !computable[name] {
				return analysis{bad: "function " + t.text}
			}
			if name == "IF" && !condition(tokens[i+1:]) {
				return analysis{bad: "IF without a comparison"}
			}
		case tokString:
			if f := enclosing(); f != "" && !textArguments[f] {
				return analysis{bad: "text given to " + f}
			}
		case tokOpen:
			if prev == tokFunc {
				parens = append(parens, paren{function: strings.ToUpper(tokens[i-1].text), call: true})
			} else {
				parens = append(parens, paren{function: enclosing()})
			}
		case tokClose:
			if len(parens) == 0 {
				return analysis{bad: "parenthesis"}
			}
			parens = parens[:len(parens)-1]
		case tokComma:
			if len(parens) == 0 || !parens[len(parens)-1].call {
				return analysis{bad: "union"}
			}
		}
		prev = t.kind
	}
	if len(parens) > 0 {
		return analysis{bad: "parenthesis"}
	}
	return out
}

// condition reports whether the first argument of an IF (tokens from its
// opening parenthesis) is a truth value as every program reads it: a
// comparison, a call of AND, OR or NOT, or TRUE or FALSE — not a number or
// a reference, which excelize reads as false whatever it holds.
func condition(tokens []formulaToken) bool {
	if len(tokens) < 2 || tokens[0].kind != tokOpen {
		return false
	}
	depth := 0
	var arg []formulaToken
	for _, t := range tokens[1:] {
		if depth == 0 && (t.kind == tokComma || t.kind == tokClose) {
			break
		}
		switch t.kind {
		case tokOpen:
			depth++
		case tokClose:
			depth--
		}
		arg = append(arg, t)
	}
	if len(arg) == 1 && arg[0].kind == tokBool {
		return true
	}
	if len(arg) > 0 && arg[0].kind == tokFunc {
		switch strings.ToUpper(arg[0].text) {
		case "AND", "OR", "NOT":
			// the call must be the whole argument
			depth := 0
			for i, t := range arg[1:] {
				switch t.kind {
				case tokOpen:
					depth++
				case tokClose:
					depth--
					if depth == 0 && i != len(arg)-2 {
						return false
					}
				}
			}
			return true
		}
	}
	depth = 0
	for _, t := range arg {
		switch t.kind {
		case tokOpen:
			depth++
		case tokClose:
			depth--
		case tokOp:
			if depth == 0 && strings.ContainsAny(t.text, "=<>") {
				return true
			}
		}
	}
	return false
}

func operand(k tokenKind) bool {
	return k == tokRef || k == tokNumber || k == tokString || k == tokBool || k == tokError || k == tokClose
}

// tokenize splits a formula into tokens; bad says what could not be read.
func tokenize(f string) ([]formulaToken, string) {
	var out []formulaToken
	space := false
	for i := 0; i < len(f); {
		c := f[i]
		start := i
		switch {
		case c == ' ' || c == '\n' || c == '\r' || c == '\t':
			space = true
			i++
			continue
		case c == '"':
			i++
			for {
				j := strings.IndexByte(f[i:], '"')
				if j < 0 {
					return nil, "string"
				}
				i += j + 1
				if i < len(f) && f[i] == '"' {
					i++
					continue
				}
				break
			}
			out = append(out, formulaToken{kind: tokString, text: f[start:i]})
		case c == '#':
			found := false
			for _, e := range errorLiterals {
				if strings.HasPrefix(strings.ToUpper(f[i:]), e) {
					out = append(out, formulaToken{kind: tokError, text: e})
					i += len(e)
					found = true
					break
				}
			}
			if !found {
				return nil, "error literal"
			}
		case c == '\'':
			// 'Sheet name'!A1, a quote doubled inside.
			i++
			var name strings.Builder
			for {
				j := strings.IndexByte(f[i:], '\'')
				if j < 0 {
					return nil, "sheet name"
				}
				name.WriteString(f[i : i+j])
				i += j + 1
				if i < len(f) && f[i] == '\'' {
					name.WriteByte('\'')
					i++
					continue
				}
				break
			}
			if i >= len(f) || f[i] != '!' || strings.ContainsAny(name.String(), "[]") {
				return nil, "sheet name"
			}
			i++
			ref, end, ok := cellsRef(f, i)
			if !ok {
				return nil, "reference"
			}
			ref.sheet = name.String()
			out = append(out, formulaToken{kind: tokRef, text: f[start:end], ref: ref})
			i = end
		case c >= '0' && c <= '9' || c == '.':
			j := i
			for j < len(f) && (f[j] >= '0' && f[j] <= '9' || f[j] == '.') {
				j++
			}
			if j < len(f) && (f[j] == 'e' || f[j] == 'E') {
				// excelize reads 1E3 as a name (#NAME?).
				return nil, "exponent"
			}
			if _, err := strconv.ParseFloat(f[i:j], 64); err != nil {
				return nil, "number"
			}
			if j < len(f) && (f[j] == ':' || isWordStart(f[j:])) {
				return nil, "whole rows"
			}
			out = append(out, formulaToken{kind: tokNumber, text: f[i:j]})
			i = j
		case c == '$' || isWordStart(f[i:]):
			j := i
			for j < len(f) {
				r, size := utf8.DecodeRuneInString(f[j:])
				if r == '$' || r == '_' || r == '.' || r == '\\' || unicode.IsLetter(r) || unicode.IsDigit(r) {
					j += size
					continue
				}
				break
			}
			word := f[i:j]
			switch {
			case j < len(f) && f[j] == '!':
				if strings.ContainsAny(word, "$") {
					return nil, "sheet name"
				}
				ref, end, ok := cellsRef(f, j+1)
				if !ok {
					return nil, "reference"
				}
				ref.sheet = word
				out = append(out, formulaToken{kind: tokRef, text: f[start:end], ref: ref})
				i = end
			case j < len(f) && f[j] == '(':
				out = append(out, formulaToken{kind: tokFunc, text: word})
				i = j
			default:
				ref, end, ok := cellsRef(f, i)
				switch {
				case ok:
					out = append(out, formulaToken{kind: tokRef, text: f[start:end], ref: ref})
					i = end
				case j < len(f) && f[j] == ':':
					return nil, "whole columns"
				case strings.EqualFold(word, "TRUE") || strings.EqualFold(word, "FALSE"):
					out = append(out, formulaToken{kind: tokBool, text: strings.ToUpper(word)})
					i = j
				default:
					return nil, "name " + word
				}
			}
		case c == '<' || c == '>':
			j := i + 1
			if j < len(f) && (f[j] == '=' || c == '<' && f[j] == '>') {
				j++
			}
			out = append(out, formulaToken{kind: tokOp, text: f[i:j]})
			i = j
		case strings.IndexByte("+-*/^&=%", c) >= 0:
			out = append(out, formulaToken{kind: tokOp, text: f[i : i+1]})
			i++
		case c == '(':
			out = append(out, formulaToken{kind: tokOpen, text: "("})
			i++
		case c == ')':
			out = append(out, formulaToken{kind: tokClose, text: ")"})
			i++
		case c == ',':
			out = append(out, formulaToken{kind: tokComma, text: ","})
			i++
		default:
			return nil, "character " + string(c)
		}
		out[len(out)-1].space = space
		space = false
	}
	return out, ""
}

func isWordStart(s string) bool {
	r, _ := utf8.DecodeRuneInString(s)
	return r == '_' || r == '\\' || unicode.IsLetter(r)
}

// cellsRef reads a cell or a range of cells at f[i:], "B2", "$B$2:C3";
// end is where it stops. Whole rows or columns are not read.
func cellsRef(f string, i int) (reference, int, bool) {
	c1, r1, a1, a2, end, ok := cellAt(f, i)
	if !ok {
		return reference{}, 0, false
	}
	ref := reference{c1: c1, r1: r1, c2: c1, r2: r1, abs: [4]bool{a1, a2, a1, a2}, start: i, end: end}
	if end < len(f) && f[end] == ':' {
		c2, r2, b1, b2, end2, ok := cellAt(f, end+1)
		if !ok {
			return reference{}, 0, false
		}
		ref.c2, ref.r2, ref.abs[2], ref.abs[3], ref.end = c2, r2, b1, b2, end2
		end = end2
	}
	// A reference ends where a name could not go on.
	if end < len(f) {
		r, _ := utf8.DecodeRuneInString(f[end:])
		if unicode.IsLetter(r) || unicode.IsDigit(r) || r == '_' || r == '.' || r == '$' || r == '!' || r == '[' || r == '#' || r == '(' {
			return reference{}, 0, false
		}
	}
	return ref, end, true
}

// cellAt reads one cell, "$B$2", at f[i:].
func cellAt(f string, i int) (col, row int, absCol, absRow bool, end int, ok bool) {
	if i < len(f) && f[i] == '$' {
		absCol = true
		i++
	}
	letters := 0
	for i < len(f) && isLetter(f[i]) && letters < 4 {
		col = col*26 + int(upper(f[i])-'A'+1)
		i++
		letters++
	}
	if letters == 0 || letters > 3 || col > maxCol {
		return 0, 0, false, false, 0, false
	}
	if i < len(f) && f[i] == '$' {
		absRow = true
		i++
	}
	digits := 0
	for i < len(f) && f[i] >= '0' && f[i] <= '9' && digits < 8 {
		row = row*10 + int(f[i]-'0')
		i++
		digits++
	}
	if digits == 0 || row < 1 || row > maxRow {
		return 0, 0, false, false, 0, false
	}
	return col, row, absCol, absRow, i, true
}

// shiftFormula writes a shared formula for a cell dCol columns and dRow
// rows from the group's first cell: each relative part of each reference
// moves, on its own sheet or another (excelize leaves a reference to
// another sheet where it is, and computes every cell of the group with
// the first cell's references). ok is false when a reference would leave
// the sheet (Excel shows #REF!) or the formula cannot be read.
func shiftFormula(formula string, dCol, dRow int) (string, bool) {
	if dCol == 0 && dRow == 0 {
		return formula, true
	}
	tokens, bad := tokenize(formula)
	if bad != "" {
		return formula, false
	}
	var b strings.Builder
	last := 0
	for _, t := range tokens {
		if t.kind != tokRef {
			continue
		}
		r := t.ref
		cells := [4]int{r.c1, r.r1, r.c2, r.r2}
		for k := range cells {
			if r.abs[k] {
				continue
			}
			if k%2 == 0 {
				cells[k] += dCol
			} else {
				cells[k] += dRow
			}
			if cells[k] < 1 || k%2 == 0 && cells[k] > maxCol || k%2 == 1 && cells[k] > maxRow {
				return formula, false
			}
		}
		b.WriteString(formula[last:r.start])
		b.WriteString(cellText(cells[0], cells[1], r.abs[0], r.abs[1]))
		if strings.Contains(formula[r.start:r.end], ":") {
			b.WriteByte(':')
			b.WriteString(cellText(cells[2], cells[3], r.abs[2], r.abs[3]))
		}
		last = r.end
	}
	b.WriteString(formula[last:])
	return b.String(), true
}

func cellText(col, row int, absCol, absRow bool) string {
	var b strings.Builder
	if absCol {
		b.WriteByte('$')
	}
	b.WriteString(ColumnName(col))
	if absRow {
		b.WriteByte('$')
	}
	b.WriteString(strconv.Itoa(row))
	return b.String()
}

// ComputableFunctions lists the functions a formula without a stored
// result may use, sorted.
func ComputableFunctions() []string {
	out := make([]string, 0, len(computable))
	for f := range computable {
		out = append(out, f)
	}
	sort.Strings(out)
	return out
}
