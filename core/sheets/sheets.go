// Package sheets turns a spreadsheet file — an Excel workbook (.xlsx), an
// OpenDocument spreadsheet (.ods) or a CSV text (.csv) — into sheets of
// cells as the person who saved it sees them: each cell's value (the
// stored result of a formula, never a guess), the merged ranges, which
// sheet was active, and for a formula whether it has a stored result. It
// knows nothing of what the cells mean: core/planning maps them to needs.
//
// Reading untrusted bytes is bounded before the work it bounds: the file
// size by the caller, a zip's directory (parts, declared sizes) before
// anything is inflated, each part inflated once to check its real size and
// checksum, rows and columns while a sheet streams. A formula without a
// stored result (what script writers such as openpyxl, ExcelJS or EPPlus
// save) is computed only when asked (Workbook.Compute), only when every
// construct it and the formulas it depends on use is one whose results
// agree with LibreOffice's (formula.go, checked by the differential test of
// calc_test.go), with excelize's calculation and within a budget; anything
// else is refused (ErrUncomputable), never replaced by another value.
package sheets

import (
	"errors"
	"fmt"
	"path/filepath"
	"strconv"
	"strings"
)

// Format is a spreadsheet file format.
type Format string

// The formats read.
const (
	XLSX Format = "xlsx"
	ODS  Format = "ods"
	CSV  Format = "csv"
)

// Errors of a file that cannot be read. The caller words them for its user.
var (
	// ErrFormat: a file name whose extension is not a format read.
	ErrFormat = errors.New("sheets: format not read")
	// ErrLegacy: an Excel 97-2003 workbook (.xls), by name or content.
	ErrLegacy = errors.New("sheets: Excel 97-2003 workbook")
	// ErrMacro: a macro-enabled workbook by its name (.xlsm, .xlsb…).
	ErrMacro = errors.New("sheets: macro-enabled or binary workbook")
	// ErrUnreadable: the content is not a readable file of its format.
	ErrUnreadable = errors.New("sheets: unreadable file")
	// ErrEncrypted: a password-protected workbook.
	ErrEncrypted = errors.New("sheets: password-protected file")
	// ErrParts: a zip of more parts than Limits.Parts.
	ErrParts = errors.New("sheets: too many parts")
	// ErrInflated: a zip whose parts inflate past Limits.Inflated.
	ErrInflated = errors.New("sheets: too large once inflated")
	// ErrUncomputable: a formula without a stored result that cannot be
	// computed exactly (Workbook.Compute).
	ErrUncomputable = errors.New("sheets: formula not computable")
)

// Limits bound the reading of one file.
type Limits struct {
	// Parts bounds the entries of a zip (an .xlsx or .ods has a dozen).
	Parts int
	// Inflated bounds the declared and real uncompressed size of all the
	// entries of a zip together.
	Inflated int64
	// Sheets bounds the sheets read; later ones are left out.
	Sheets int
	// Rows bounds the rows read of a sheet a formula refers to.
	Rows int
	// Columns bounds the columns kept in a row: a value further right is
	// reported by Row.Beyond, not kept.
	Columns int
	// Formulas bounds the formulas without a stored result Compute
	// computes for one file, and Cells the cells they reach together.
	Formulas int
	Cells    int
	// Range bounds the cells one reference of a formula may cover.
	Range int
}

// Kind is what a cell holds.
type Kind uint8

// The kinds of cell.
const (
	Empty  Kind = iota
	Number      // Value is a decimal number, "12.5", "1.25E+2"
	Text        // Value is the text as written
	Bool        // Value is "TRUE" or "FALSE"
	Date        // Value is an ISO date, "2027-01-01", or date and time
	Error       // Value is the error, "#DIV/0!"
)

// Cell is one cell of a sheet.
type Cell struct {
	// Value is the value as stored (a formula's stored result).
	Value string
	// Formula is the cell's formula as written, without "=" ("" for a
	// value; for a formula shared with other cells, see Sheet.Formula).
	Formula string
	Col     int // 1 for column A
	// shared is a shared formula's group, plus one.
	shared int32
	Kind   Kind
	// Pending marks a formula without a stored result: Kind is Empty
	// until Workbook.Compute gives its value.
	Pending bool
	// ftype is the formula's type (formulaNormal, formulaShared…).
	ftype uint8
}

// IsFormula reports a cell holding a formula.
func (c Cell) IsFormula() bool { return c.Formula != "" || c.shared > 0 }

// Blank reports a cell that holds nothing: no value, no formula.
func (c Cell) Blank() bool {
	return !c.IsFormula() && (c.Kind == Empty || c.Kind == Text && strings.TrimSpace(c.Value) == "")
}

// Row is a row holding at least one cell.
type Row struct {
	Num int // 1 for the first row
	// Cells are the row's cells that hold something, by column.
	Cells []Cell
	// Beyond is the first cell right of Limits.Columns holding
	// something (its Col is 0 when none).
	Beyond Cell
}

// At returns the cell of a column (an Empty cell when none).
func (r Row) At(col int) Cell {
	lo, hi := 0, len(r.Cells)
	for lo < hi {
		mid := (lo + hi) / 2
		switch c := r.Cells[mid].Col; {
		case c == col:
			return r.Cells[mid]
		case c < col:
			lo = mid + 1
		default:
			hi = mid
		}
	}
	return Cell{Col: col}
}

// Range is a rectangle of cells, its corners included.
type Range struct {
	FromCol, FromRow, ToCol, ToRow int
}

// Contains reports whether the range holds a cell.
func (g Range) Contains(col, row int) bool {
	return col >= g.FromCol && col <= g.ToCol && row >= g.FromRow && row <= g.ToRow
}

func (g Range) String() string {
	return CellName(g.FromCol, g.FromRow) + ":" + CellName(g.ToCol, g.ToRow)
}

// Sheet is a sheet read.
type Sheet struct {
	Index  int // its place in the workbook, from 0
	Name   string
	Hidden bool
	// Rows are the rows holding something, in order, up to the maxRows
	// the sheet was read with.
	Rows []Row
	// More reports rows left out past maxRows.
	More bool
	// Merged are the merged ranges.
	Merged []Range

	shared map[int32]sharedFormula // xlsx shared formulas by group
}

// sharedFormula is the master cell of a group of cells sharing a formula.
type sharedFormula struct {
	col, row int
	text     string
}

// MergedAt returns the merged range holding a cell, if any.
func (s *Sheet) MergedAt(col, row int) (Range, bool) {
	for _, g := range s.Merged {
		if g.Contains(col, row) {
			return g, true
		}
	}
	return Range{}, false
}

// Formula returns the formula of a cell as written for it, shared
// formulas expanded for the cell ("" for a value).
func (s *Sheet) Formula(c Cell, row int) string {
	if c.shared == 0 {
		return c.Formula
	}
	m, ok := s.shared[c.shared-1]
	if !ok {
		return c.Formula
	}
	text, ok := shiftFormula(m.text, c.Col-m.col, row-m.row)
	if !ok {
		return m.text
	}
	return text
}

// Workbook is an opened file.
type Workbook struct {
	Format Format
	// Names are the sheets' names, in the order of their tabs.
	Names  []string
	Hidden []bool
	// Active is the index of the sheet the file opens on.
	Active int
	// Date1904 reports an Excel workbook counting dates from 1904.
	Date1904 bool

	lim    Limits
	reader sheetReader
	loaded map[int]*Sheet
	calc   *calc
}

// sheetReader reads one sheet of a file.
type sheetReader interface {
	sheet(i, maxRows int) (*Sheet, error)
}

// FormatOf is the format a file name says, or ErrFormat, ErrLegacy,
// ErrMacro.
func FormatOf(name string) (Format, error) {
	switch strings.ToLower(filepath.Ext(strings.TrimSpace(name))) {
	case ".xlsx":
		return XLSX, nil
	case ".ods":
		return ODS, nil
	case ".csv":
		return CSV, nil
	case ".xls", ".xlt":
		return "", ErrLegacy
	case ".xlsm", ".xlsb", ".xltm", ".xltx", ".xlam":
		return "", ErrMacro
	}
	return "", ErrFormat
}

// Open reads a file's workbook: its format from its name, its sheets'
// names, the active sheet. The sheets themselves are read by Sheet.
func Open(name string, data []byte, lim Limits) (*Workbook, error) {
	format, err := FormatOf(name)
	if err != nil {
		return nil, err
	}
	wb := &Workbook{Format: format, lim: lim, loaded: map[int]*Sheet{}}
	switch format {
	case XLSX:
		err = openXLSX(wb, data)
	case ODS:
		err = openODS(wb, data)
	default:
		err = openCSV(wb, name, data)
	}
	if err != nil {
		return nil, err
	}
	if len(wb.Names) > lim.Sheets {
		wb.Names, wb.Hidden = wb.Names[:lim.Sheets], wb.Hidden[:lim.Sheets]
	}
	if wb.Active < 0 || wb.Active >= len(wb.Names) || wb.Hidden[wb.Active] {
		wb.Active = 0
	}
	return wb, nil
}

// Sheet reads sheet i, keeping at most maxRows rows; a sheet read again
// with as many rows or fewer is not read twice.
func (wb *Workbook) Sheet(i, maxRows int) (*Sheet, error) {
	if i < 0 || i >= len(wb.Names) {
		return nil, fmt.Errorf("sheets: no sheet %d", i)
	}
	if s, ok := wb.loaded[i]; ok && (!s.More || len(s.Rows) >= maxRows) {
		return s, nil
	}
	s, err := wb.reader.sheet(i, maxRows)
	if err != nil {
		return nil, err
	}
	s.Index, s.Name, s.Hidden = i, wb.Names[i], wb.Hidden[i]
	wb.loaded[i] = s
	return s, nil
}

// Close releases what Compute holds.
func (wb *Workbook) Close() {
	if wb.calc != nil {
		wb.calc.close()
		wb.calc = nil
	}
}

// CellName names a cell, "B4".
func CellName(col, row int) string {
	return ColumnName(col) + strconv.Itoa(row)
}

// ColumnName names a column, "A" for 1, "AA" for 27.
func ColumnName(col int) string {
	if col < 1 {
		return "?"
	}
	var b [8]byte
	i := len(b)
	for col > 0 && i > 0 {
		col--
		i--
		b[i] = byte('A' + col%26)
		col /= 26
	}
	return string(b[i:])
}

// ParseCellName reads "B4" (or "$B$4") as column 2, row 4.
func ParseCellName(s string) (col, row int, ok bool) {
	s = strings.ReplaceAll(s, "$", "")
	i := 0
	for i < len(s) && i < 3 && isLetter(s[i]) {
		col = col*26 + int(upper(s[i])-'A'+1)
		i++
	}
	if i == 0 || i == len(s) {
		return 0, 0, false
	}
	for _, c := range []byte(s[i:]) {
		if c < '0' || c > '9' || row > maxRow {
			return 0, 0, false
		}
		row = row*10 + int(c-'0')
	}
	if col > maxCol || row < 1 || row > maxRow {
		return 0, 0, false
	}
	return col, row, true
}

// The largest sheet a spreadsheet program makes.
const (
	maxCol = 16384
	maxRow = 1048576
)

func isLetter(c byte) bool { return c >= 'A' && c <= 'Z' || c >= 'a' && c <= 'z' }

func upper(c byte) byte {
	if c >= 'a' && c <= 'z' {
		return c - 'a' + 'A'
	}
	return c
}

// rowBuilder collects the cells of the row being read, within the limits.
type rowBuilder struct {
	lim   int // Limits.Columns
	row   Row
	blank bool
}

func (b *rowBuilder) reset(num int) {
	b.row = Row{Num: num}
	b.blank = true
}

// add keeps a cell that holds something, in column order (a cell given
// again for a column already filled is ignored, as spreadsheet programs
// do with a malformed file).
func (b *rowBuilder) add(c Cell) {
	if c.Kind == Empty && !c.IsFormula() {
		return
	}
	if c.Col > b.lim {
		if b.row.Beyond.Col == 0 {
			b.row.Beyond = c
		}
		b.blank = false
		return
	}
	if n := len(b.row.Cells); n > 0 && b.row.Cells[n-1].Col >= c.Col {
		return
	}
	b.row.Cells = append(b.row.Cells, c)
	b.blank = false
}
