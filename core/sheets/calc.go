package sheets

import (
	"fmt"
	"math"
	"strconv"
	"strings"

	"github.com/xuri/excelize/v2"
)

// calc computes formulas without a stored result with excelize, on a
// workbook of its own holding only what they need: the values of the cells
// they reach as the file stores them (a formula's stored result, which
// excelize would otherwise compute again), and the formulas without a
// stored result they reach, each written for its own cell (a shared
// formula expanded by shiftFormula, not by excelize).
type calc struct {
	wb    *Workbook
	f     *excelize.File
	made  map[int]bool      // sheets created in f
	added map[cellKey]bool  // cells written in f
	done  map[cellKey]Cell  // results
	bad   map[cellKey]error // cells found uncomputable
	// formulas and cells count what was written to f, within
	// Limits.Formulas and Limits.Cells.
	formulas, cells int
}

type cellKey struct{ sheet, col, row int }

// UncomputableError is a formula Compute refuses, with why (for the logs;
// the user is told the formula cannot be computed).
type UncomputableError struct {
	Why string
}

func (e *UncomputableError) Error() string { return "sheets: formula not computable: " + e.Why }
func (e *UncomputableError) Unwrap() error { return ErrUncomputable }

func uncomputable(format string, args ...any) error {
	return &UncomputableError{Why: fmt.Sprintf(format, args...)}
}

// Compute returns the value of a cell of a sheet read from the workbook:
// the cell itself unless it is a formula without a stored result, whose
// value is then computed — or an error wrapping ErrUncomputable when it
// cannot be computed exactly (a construct outside formula.go's list, a
// reference to something not read, a budget of Limits exceeded). Only
// .xlsx formulas are computed: LibreOffice always stores results.
func (wb *Workbook) Compute(s *Sheet, col, row int) (Cell, error) {
	c, ok := cellOf(s, col, row)
	if !ok || !c.Pending {
		return c, nil
	}
	if wb.Format != XLSX {
		return c, uncomputable("%s formula without a stored result", wb.Format)
	}
	if wb.calc == nil {
		wb.calc = &calc{wb: wb, made: map[int]bool{}, added: map[cellKey]bool{}, done: map[cellKey]Cell{}, bad: map[cellKey]error{}}
	}
	return wb.calc.compute(s, cellKey{s.Index, col, row})
}

// cellOf finds a cell of a sheet read; ok is false past the rows read.
func cellOf(s *Sheet, col, row int) (Cell, bool) {
	lo, hi := 0, len(s.Rows)
	for lo < hi {
		mid := (lo + hi) / 2
		switch n := s.Rows[mid].Num; {
		case n == row:
			return s.Rows[mid].At(col), true
		case n < row:
			lo = mid + 1
		default:
			hi = mid
		}
	}
	if s.More && (len(s.Rows) == 0 || row > s.Rows[len(s.Rows)-1].Num) {
		return Cell{Col: col}, false
	}
	return Cell{Col: col}, true
}

func (k *calc) close() {
	if k.f != nil {
		_ = k.f.Close()
	}
}

// compute computes one formula cell after writing to the calculation
// workbook what it needs.
func (k *calc) compute(s *Sheet, key cellKey) (Cell, error) {
	if c, ok := k.done[key]; ok {
		return c, nil
	}
	if err, ok := k.bad[key]; ok {
		return Cell{Col: key.col}, err
	}
	if err := k.prepare(key); err != nil {
		k.bad[key] = err
		return Cell{Col: key.col}, err
	}
	v, err := k.f.CalcCellValue(k.name(key.sheet), CellName(key.col, key.row), excelize.Options{RawCellValue: true})
	out := Cell{Col: key.col}
	switch {
	case err != nil && isErrorValue(v):
		out.Kind, out.Value = Error, v
	case err != nil:
		err = uncomputable("excelize: %v", err)
		k.bad[key] = err
		return out, err
	case v == "TRUE" || v == "FALSE":
		out.Kind, out.Value = Bool, v
	case isErrorValue(v):
		out.Kind, out.Value = Error, v
	case v == "":
		// excelize gives "" for an empty text and for an empty cell the
		// formula ends on (=A1), which Excel and LibreOffice show as 0.
		text, err := k.isText(key)
		if err != nil || !text {
			err = uncomputable("an empty result")
			k.bad[key] = err
			return out, err
		}
		out.Kind = Text
	default:
		if f, err := strconv.ParseFloat(v, 64); err == nil && !math.IsInf(f, 0) && !math.IsNaN(f) {
			out.Kind, out.Value = Number, v
		} else {
			out.Kind, out.Value = Text, v
		}
	}
	k.done[key] = out
	return out, nil
}

// isText asks excelize whether a formula's empty result is a text: its
// formula is computed again under ISTEXT in a cell no formula reaches.
func (k *calc) isText(key cellKey) (bool, error) {
	s, err := k.wb.Sheet(key.sheet, k.wb.lim.Rows)
	if err != nil {
		return false, err
	}
	c, _ := cellOf(s, key.col, key.row)
	text := s.Formula(c, key.row)
	if c.shared > 0 {
		m := s.shared[c.shared-1]
		text, _ = shiftFormula(m.text, key.col-m.col, key.row-m.row)
	}
	name, probe := k.name(key.sheet), CellName(maxCol, maxRow)
	if err := k.f.SetCellFormula(name, probe, "ISTEXT("+text+")"); err != nil {
		return false, err
	}
	v, err := k.f.CalcCellValue(name, probe, excelize.Options{RawCellValue: true})
	_ = k.f.SetCellFormula(name, probe, "")
	return v == "TRUE", err
}

func isNumber(s string) bool {
	_, err := strconv.ParseFloat(strings.TrimSpace(s), 64)
	return err == nil
}

func isErrorValue(v string) bool {
	for _, e := range errorLiterals {
		if v == e {
			return true
		}
	}
	return false
}

// prepare writes to the calculation workbook the formula of key and
// everything it reaches, checking every formula on the way.
func (k *calc) prepare(key cellKey) error {
	if k.added[key] {
		return nil
	}
	lim := k.wb.lim
	// The formulas to write, reached from key, in the order found.
	stack := []cellKey{key}
	seen := map[cellKey]bool{key: true}
	var formulas []cellKey
	texts := map[cellKey]string{}
	values := map[cellKey]Cell{}
	for len(stack) > 0 {
		at := stack[len(stack)-1]
		stack = stack[:len(stack)-1]
		s, err := k.wb.Sheet(at.sheet, lim.Rows)
		if err != nil {
			return uncomputable("sheet %d: %v", at.sheet, err)
		}
		c, ok := cellOf(s, at.col, at.row)
		if !ok {
			return uncomputable("%s!%s is past the rows read", s.Name, CellName(at.col, at.row))
		}
		if c.ftype == formulaArray || c.ftype == formulaTable {
			return uncomputable("array or data table formula at %s!%s", s.Name, CellName(at.col, at.row))
		}
		text := s.Formula(c, at.row)
		if c.shared > 0 {
			var ok bool
			m := s.shared[c.shared-1]
			if text, ok = shiftFormula(m.text, at.col-m.col, at.row-m.row); !ok {
				return uncomputable("shared formula %q moved off the sheet", m.text)
			}
		}
		a := analyse(text)
		if a.bad != "" {
			return uncomputable("%s in %q", a.bad, text)
		}
		if !k.added[at] {
			formulas = append(formulas, at)
			texts[at] = text
		}
		for _, r := range a.refs {
			sheet := at.sheet
			if r.sheet != "" {
				if sheet = k.wb.sheetIndex(r.sheet); sheet < 0 {
					return uncomputable("no sheet %q", r.sheet)
				}
			}
			if (r.c2-r.c1+1)*(r.r2-r.r1+1) > lim.Range {
				return uncomputable("range of %d cells", (r.c2-r.c1+1)*(r.r2-r.r1+1))
			}
			rs, err := k.wb.Sheet(sheet, lim.Rows)
			if err != nil {
				return uncomputable("sheet %d: %v", sheet, err)
			}
			if rs.More && len(rs.Rows) > 0 && r.r2 > rs.Rows[len(rs.Rows)-1].Num {
				return uncomputable("%s!%s is past the rows read", rs.Name, CellName(r.c2, r.r2))
			}
			err = eachCell(rs, r, func(c Cell, row int) error {
				ck := cellKey{sheet, c.Col, row}
				if seen[ck] || k.added[ck] {
					return nil
				}
				seen[ck] = true
				if c.Pending {
					stack = append(stack, ck)
					return nil
				}
				// An error, a date typed as such, a truth value or a number
				// written as text: Excel, LibreOffice and excelize each
				// count them differently in sums, averages and conditions.
				if c.Kind == Error || c.Kind == Date || c.Kind == Bool || c.Kind == Text && isNumber(c.Value) {
					return uncomputable("%s!%s holds %s", rs.Name, CellName(c.Col, row), c.Value)
				}
				values[ck] = c
				return nil
			})
			if err != nil {
				return err
			}
		}
		if k.formulas+len(formulas) > lim.Formulas || k.cells+len(values)+len(formulas) > lim.Cells {
			return uncomputable("more than %d formulas or %d cells", lim.Formulas, lim.Cells)
		}
	}
	if err := k.write(values, formulas, texts); err != nil {
		return uncomputable("excelize: %v", err)
	}
	return nil
}

// eachCell calls fn for each cell of a range holding something.
func eachCell(s *Sheet, r reference, fn func(Cell, int) error) error {
	lo, hi := 0, len(s.Rows)
	for lo < hi { // the first row at or after r.r1
		mid := (lo + hi) / 2
		if s.Rows[mid].Num < r.r1 {
			lo = mid + 1
		} else {
			hi = mid
		}
	}
	for _, row := range s.Rows[lo:] {
		if row.Num > r.r2 {
			break
		}
		if row.Beyond.Col > 0 && row.Beyond.Col <= r.c2 {
			return uncomputable("%s!%s is past the columns read", s.Name, CellName(row.Beyond.Col, row.Num))
		}
		for _, c := range row.Cells {
			if c.Col < r.c1 {
				continue
			}
			if c.Col > r.c2 {
				break
			}
			if err := fn(c, row.Num); err != nil {
				return err
			}
		}
	}
	return nil
}

// sheetIndex finds a sheet by name, whatever its case (as Excel does);
// -1 when none.
func (wb *Workbook) sheetIndex(name string) int {
	for i, n := range wb.Names {
		if strings.EqualFold(n, name) {
			return i
		}
	}
	return -1
}

// name is the name of a sheet in the calculation workbook, created when
// first needed.
func (k *calc) name(sheet int) string {
	return k.wb.Names[sheet]
}

// write adds values and formulas to the calculation workbook.
func (k *calc) write(values map[cellKey]Cell, formulas []cellKey, texts map[cellKey]string) error {
	if k.f == nil {
		k.f = excelize.NewFile()
		if k.wb.Date1904 {
			yes := true
			if err := k.f.SetWorkbookProps(&excelize.WorkbookPropsOptions{Date1904: &yes}); err != nil {
				return err
			}
		}
	}
	ensure := func(sheet int) error {
		if k.made[sheet] {
			return nil
		}
		name := k.name(sheet)
		var err error
		if len(k.made) == 0 {
			err = k.f.SetSheetName("Sheet1", name)
		} else {
			_, err = k.f.NewSheet(name)
		}
		if err != nil {
			return err
		}
		k.made[sheet] = true
		return nil
	}
	for key, c := range values {
		if err := ensure(key.sheet); err != nil {
			return err
		}
		name, ref := k.name(key.sheet), CellName(key.col, key.row)
		var err error
		switch c.Kind {
		case Number:
			var f float64
			if f, err = strconv.ParseFloat(c.Value, 64); err == nil {
				err = k.f.SetCellFloat(name, ref, f, -1, 64)
			}
		case Bool:
			err = k.f.SetCellBool(name, ref, c.Value == "TRUE")
		case Text:
			err = k.f.SetCellStr(name, ref, c.Value)
		}
		if err != nil {
			return err
		}
		k.added[key] = true
		k.cells++
	}
	for _, key := range formulas {
		if err := ensure(key.sheet); err != nil {
			return err
		}
		if err := k.f.SetCellFormula(k.name(key.sheet), CellName(key.col, key.row), texts[key]); err != nil {
			return err
		}
		k.added[key] = true
		k.formulas++
		k.cells++
	}
	return nil
}
