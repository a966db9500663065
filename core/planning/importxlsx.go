package planning

import (
	"archive/zip"
	"bytes"
	"errors"
	"fmt"
	"io"
	"math"
	"path/filepath"
	"strconv"
	"strings"
	"time"

	"github.com/xuri/excelize/v2"

	"primeur/core"
	"primeur/core/calendar"
	"primeur/core/catalog"
	"primeur/core/decimal"
)

// Limits of an Excel import (PRODUCT §13). Each one is checked before the work
// it bounds: the size before anything is read, the zip directory before
// excelize inflates a byte, the rows and columns while the sheet streams.
const (
	// MaxImportBytes bounds the .xlsx file itself (the upload).
	MaxImportBytes = 5 << 20
	// UnzipSizeLimit bounds the declared uncompressed size of all the
	// workbook's parts together (excelize's UnzipSizeLimit).
	UnzipSizeLimit = 20 << 20
	// UnzipXMLSizeLimit is the largest worksheet excelize keeps in memory;
	// a bigger one is inflated to a temporary file (still within
	// UnzipSizeLimit) and streamed from there.
	UnzipXMLSizeLimit = 5 << 20
	// MaxZipEntries bounds the parts of the workbook; a real one has a dozen.
	MaxZipEntries = 100
	// MaxImportRows bounds the product rows of the sheet.
	MaxImportRows = 10_000
	// MaxImportMonths bounds the month columns.
	MaxImportMonths = 36
)

// ImportField is the multipart field carrying the file (PRODUCT §3), and the
// field import errors are reported on.
const ImportField = "importfile"

// French messages of the file import. Those with verbs take the cell
// reference ("B4") and what it holds.
const (
	MsgImportExtension  = "Seuls les fichiers Excel au format .xlsx sont acceptés."
	MsgImportTooBig     = "Le fichier dépasse la taille maximale de 5 Mo."
	MsgImportNoFile     = "Aucun fichier reçu : choisissez un fichier .xlsx."
	MsgImportNotXLSX    = "Ce fichier n'est pas un classeur Excel .xlsx lisible."
	MsgImportEncrypted  = "Ce fichier est protégé par un mot de passe ou enregistré au format Excel 97-2003 : enregistrez-le sans mot de passe au format .xlsx, puis réessayez."
	MsgImportEntries    = "Ce classeur contient trop d'éléments (100 au plus) : enregistrez une copie ne contenant que le tableau des besoins."
	MsgImportInflated   = "Ce classeur est trop volumineux une fois décompressé (20 Mo au plus)."
	MsgImportEmpty      = "La première feuille du classeur est vide."
	MsgImportNoHeader   = "La cellule A1 de la première feuille doit contenir « Produit », suivie d'une colonne par mois."
	MsgImportNoMonths   = "La ligne 1 ne contient aucun mois après « Produit »."
	MsgImportNoRows     = "Le fichier ne contient aucune ligne de produit."
	MsgImportManyMonths = "Le fichier contient trop de colonnes de mois (36 au plus)."
	MsgImportManyRows   = "Le fichier contient trop de lignes de produits (10 000 au plus)."
	msgImportNoMonth    = "En-tête de mois manquant en %s."
	msgImportBadMonth   = "En-tête de mois illisible en %s (« %s ») : indiquez une date, 2026-12 ou 12/2026."
	msgImportDupMonth   = "Le mois de %s (%s) figure déjà dans une autre colonne."
	msgImportNoName     = "Nom de produit manquant en %s."
	msgImportDupProduct = "Le produit « %s » figure deux fois (lignes %d et %d)."
	msgImportText       = "Quantité illisible en %s (« %s ») : saisissez un nombre."
	msgImportNegative   = "Quantité négative en %s : saisissez un nombre positif."
	msgImportCell       = "Quantité incorrecte en %s (%s) : %s"
	msgImportOutside    = "Valeur en %s hors des colonnes de mois."
)

// oleHeader starts every OLE compound file: an encrypted (password
// protected) workbook, or an Excel 97-2003 .xls.
var oleHeader = []byte{0xD0, 0xCF, 0x11, 0xE0, 0xA1, 0xB1, 0x1A, 0xE1}

// ImportCell is one quantity of the file.
type ImportCell struct {
	// Month is an index into Import.Months.
	Month    int
	Quantity decimal.Dec
	// Ref is the cell's reference, "C4".
	Ref string
}

// ImportRow is one product row of the file.
type ImportRow struct {
	// Line is the row number in the sheet (1 is the header).
	Line int
	// Name is the product name as written in the file.
	Name string
	// Product is the catalogue product it matched; nil when none did.
	Product *catalog.Product
	// Suggestion is, when no product matched, the catalogue name closest
	// to Name, or "" when none is close.
	Suggestion string
	Cells      []ImportCell
}

// ImportRounding is a kilogram quantity of the file with more than two
// decimals (typically a formula's result), rounded to the hundredth as
// the forms round it (PRODUCT §5); the answer lists each one.
type ImportRounding struct {
	Cell     string      `json:"cell" doc:"Cell of the file" example:"C4"`
	Product  string      `json:"product" doc:"Product name, as the catalogue spells it" example:"Tomate"`
	Read     string      `json:"read" doc:"The value as the file holds it" example:"38.583333"`
	Quantity decimal.Dec `json:"quantity" doc:"The quantity imported" example:"38.58"`
}

// ImportSuggestion is a product name of the file that is not in the
// catalogue, with the catalogue's closest name.
type ImportSuggestion struct {
	Name    string `json:"name" doc:"Product name as written in the file" example:"Tomates cerises"`
	Product string `json:"product" doc:"The closest catalogue name" example:"Tomate cerise"`
}

// Import is a parsed file, checked and ready to apply.
type Import struct {
	// Months are the month columns, "2026-12-01", in file order.
	Months []string
	Rows   []ImportRow
	// Rounded are the kilogram quantities rounded to the hundredth.
	Rounded []ImportRounding
}

// Suggestions returns, for the file's products that are not in the
// catalogue, the closest catalogue name when one is close, in file order.
func (imp *Import) Suggestions() []ImportSuggestion {
	out := []ImportSuggestion{}
	for _, r := range imp.Rows {
		if r.Product == nil && r.Suggestion != "" {
			out = append(out, ImportSuggestion{Name: r.Name, Product: r.Suggestion})
		}
	}
	return out
}

// importError is a file error: a validation error on the import field.
func importError(msg string, args ...any) error {
	if len(args) > 0 {
		msg = fmt.Sprintf(msg, args...)
	}
	return core.Invalid(ImportField, msg)
}

// CheckImportFile checks what can be checked of an upload before reading
// it: its name and its size.
func CheckImportFile(name string, size int64) error {
	if !strings.EqualFold(filepath.Ext(strings.TrimSpace(name)), ".xlsx") {
		return importError(MsgImportExtension)
	}
	if size > MaxImportBytes {
		return core.Refuse(core.ErrTooLarge, MsgImportTooBig)
	}
	return nil
}

// ParseXLSX reads an import file (PRODUCT §14): the first sheet, row 1 =
// "Produit" then one column per month (a date cell, "2026-12" or "12/2026"),
// then one row per product with its quantities; empty cells are skipped.
// Products are matched with ix by name, whatever the case and accents.
// Every problem is a core.ValidationError on ImportField with a French
// message naming the cell, or a core.Refusal (ErrTooLarge) for the size.
// Nothing is written: Apply does that.
func ParseXLSX(name string, data []byte, ix *catalog.Index) (imp *Import, err error) {
	// excelize parses untrusted bytes; should it ever panic on them (fuzzing
	// has not made it), the upload is an unreadable file, not a crash.
	defer func() {
		if r := recover(); r != nil {
			imp, err = nil, importError(MsgImportNotXLSX)
		}
	}()
	if err := CheckImportFile(name, int64(len(data))); err != nil {
		return nil, err
	}
	if bytes.HasPrefix(data, oleHeader) {
		return nil, importError(MsgImportEncrypted)
	}
	if err := checkZip(data); err != nil {
		return nil, err
	}
	f, err := excelize.OpenReader(bytes.NewReader(data), excelize.Options{
		UnzipSizeLimit:    UnzipSizeLimit,
		UnzipXMLSizeLimit: UnzipXMLSizeLimit,
	})
	if err != nil {
		if f != nil {
			_ = f.Close()
		}
		if strings.Contains(err.Error(), "unzip size exceeds") {
			return nil, importError(MsgImportInflated)
		}
		return nil, importError(MsgImportNotXLSX)
	}
	defer f.Close()
	sheets := f.GetSheetList()
	if len(sheets) == 0 {
		return nil, importError(MsgImportEmpty)
	}
	props, err := f.GetWorkbookProps()
	if err != nil {
		return nil, importError(MsgImportNotXLSX)
	}
	date1904 := props.Date1904 != nil && *props.Date1904
	rows, err := f.Rows(sheets[0])
	if err != nil {
		return nil, importError(MsgImportNotXLSX)
	}
	p := parser{ix: ix, date1904: date1904, seen: map[string]int{}}
	imp, err = p.read(rows)
	if cerr := rows.Close(); err == nil && cerr != nil {
		err = importError(MsgImportNotXLSX)
	}
	return imp, err
}

// checkZip reads the zip directory and refuses, before anything is
// inflated, too many entries or too much declared content. Then it inflates
// each entry once, without keeping it, to check that it holds exactly its
// declared size and checksum: excelize ignores read errors and would take a
// damaged or lying entry (a zip bomb declaring a small size) as a truncated
// part, which could import half a sheet.
func checkZip(data []byte) error {
	zr, err := zip.NewReader(bytes.NewReader(data), int64(len(data)))
	if err != nil {
		return importError(MsgImportNotXLSX)
	}
	if len(zr.File) > MaxZipEntries {
		return importError(MsgImportEntries)
	}
	var total uint64
	for _, e := range zr.File {
		if e.UncompressedSize64 > UnzipSizeLimit {
			return importError(MsgImportInflated)
		}
		total += e.UncompressedSize64
	}
	if total > UnzipSizeLimit {
		return importError(MsgImportInflated)
	}
	for _, e := range zr.File {
		rc, err := e.Open()
		if err != nil {
			return importError(MsgImportNotXLSX)
		}
		// Go's zip reader fails past the declared size and on a checksum
		// mismatch, so this reads at most the declared sizes checked above.
		_, err = io.Copy(io.Discard, rc)
		rc.Close()
		if err != nil {
			return importError(MsgImportNotXLSX)
		}
	}
	return nil
}

type parser struct {
	ix       *catalog.Index
	date1904 bool
	imp      Import
	header   bool
	// seen maps a product's name key to the line it appeared on.
	seen map[string]int
}

var rawCells = excelize.Options{RawCellValue: true}

func (p *parser) read(rows *excelize.Rows) (*Import, error) {
	line, blankHeader := 0, false
	for rows.Next() {
		line++
		cols, err := rows.Columns(rawCells)
		if err != nil {
			return nil, importError(MsgImportNotXLSX)
		}
		if isBlank(cols) {
			if line == 1 {
				blankHeader = true
			}
			continue
		}
		if line == 1 {
			if err := p.readHeader(cols); err != nil {
				return nil, err
			}
			continue
		}
		if blankHeader {
			return nil, importError(MsgImportNoHeader)
		}
		if len(p.imp.Rows) == MaxImportRows {
			return nil, importError(MsgImportManyRows)
		}
		if err := p.readRow(line, cols); err != nil {
			return nil, err
		}
	}
	if rows.Error() != nil {
		return nil, importError(MsgImportNotXLSX)
	}
	switch {
	case !p.header:
		return nil, importError(MsgImportEmpty)
	case len(p.imp.Rows) == 0:
		return nil, importError(MsgImportNoRows)
	}
	return &p.imp, nil
}

func isBlank(cols []string) bool {
	for _, c := range cols {
		if strings.TrimSpace(c) != "" {
			return false
		}
	}
	return true
}

func (p *parser) readHeader(cols []string) error {
	if key := catalog.NameKey(cols[0]); key != "produit" && key != "produits" {
		return importError(MsgImportNoHeader)
	}
	cols = trimTrailing(cols)
	if len(cols) == 1 {
		return importError(MsgImportNoMonths)
	}
	if len(cols)-1 > MaxImportMonths {
		return importError(MsgImportManyMonths)
	}
	seen := map[string]bool{}
	for i, raw := range cols[1:] {
		ref := cellRef(i+2, 1)
		raw = strings.TrimSpace(raw)
		if raw == "" {
			return importError(msgImportNoMonth, ref)
		}
		month, ok := p.monthOf(raw)
		if !ok {
			return importError(msgImportBadMonth, ref, clip(raw))
		}
		if seen[month] {
			return importError(msgImportDupMonth, ref, month[:7])
		}
		seen[month] = true
		p.imp.Months = append(p.imp.Months, month)
	}
	p.header = true
	return nil
}

func trimTrailing(cols []string) []string {
	for len(cols) > 0 && strings.TrimSpace(cols[len(cols)-1]) == "" {
		cols = cols[:len(cols)-1]
	}
	return cols
}

// Excel serial numbers of 2000-01-01 and 2101-01-01 (1900 date system): a
// number in a month header must be a date of this century.
const (
	serial2000 = 36526
	serial2101 = 73416
)

// monthOf reads a month header: a date cell (an Excel serial number, or an
// ISO date from a date-typed cell), "2026-12", "2026-12-01" or "12/2026".
func (p *parser) monthOf(raw string) (string, bool) {
	if f, err := strconv.ParseFloat(raw, 64); err == nil {
		if p.date1904 {
			f += 1462
		}
		if math.IsNaN(f) || f < serial2000 || f >= serial2101 {
			return "", false
		}
		t, err := excelize.ExcelDateToTime(f, false)
		if err != nil {
			return "", false
		}
		return calendar.MonthOf(t).String(), true
	}
	if y, m, ok := strings.Cut(raw, "/"); ok { // "12/2026"
		mm, err1 := strconv.Atoi(y)
		yy, err2 := strconv.Atoi(m)
		if err1 != nil || err2 != nil || len(m) != 4 || mm < 1 || mm > 12 || yy < calendar.MinYear || yy > calendar.MaxYear {
			return "", false
		}
		return calendar.MonthOfParts(yy, time.Month(mm)).String(), true
	}
	if len(raw) > 10 && (raw[10] == 'T' || raw[10] == ' ') { // a date-typed cell, "2026-12-01T00:00:00"
		raw = raw[:10]
	}
	month, err := ParseMonth("", raw)
	return month, err == nil
}

func (p *parser) readRow(line int, cols []string) error {
	name := strings.TrimSpace(cols[0])
	if name == "" {
		return importError(msgImportNoName, cellRef(1, line))
	}
	key := catalog.NameKey(name)
	if key == "" {
		key = name
	}
	if first, dup := p.seen[key]; dup {
		return importError(msgImportDupProduct, clip(name), first, line)
	}
	p.seen[key] = line
	row := ImportRow{Line: line, Name: name}
	if prod, ok := p.ix.ByName(name); ok {
		row.Product = &prod
	}
	for i, raw := range cols[1:] {
		raw = strings.TrimSpace(raw)
		if raw == "" {
			continue
		}
		ref := cellRef(i+2, line)
		if i >= len(p.imp.Months) {
			return importError(msgImportOutside, ref)
		}
		f, ok := parseNumber(raw)
		if !ok {
			return importError(msgImportText, ref, clip(raw))
		}
		if f < 0 {
			return importError(msgImportNegative, ref)
		}
		if row.Product == nil {
			continue // reported as missing; its unit is unknown
		}
		q, err := ParseCellQuantity(ref, row.Product.Unit, f)
		if err != nil {
			var v *core.ValidationError
			if errors.As(err, &v) {
				return importError(msgImportCell, ref, row.Product.Name, v.Fields[0].Message)
			}
			return err
		}
		row.Cells = append(row.Cells, ImportCell{Month: i, Quantity: q, Ref: ref})
	}
	p.imp.Rows = append(p.imp.Rows, row)
	return nil
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

func cellRef(col, row int) string {
	ref, err := excelize.CoordinatesToCellName(col, row)
	if err != nil {
		return fmt.Sprintf("L%dC%d", row, col)
	}
	return ref
}

// clip shortens what a cell holds for an error message.
func clip(s string) string {
	r := []rune(s)
	if len(r) > 40 {
		return string(r[:40]) + "…"
	}
	return s
}

// Found returns the catalogue names of the products found, in file order.
func (imp *Import) Found() []string {
	out := []string{}
	for _, r := range imp.Rows {
		if r.Product != nil {
			out = append(out, r.Product.Name)
		}
	}
	return out
}

// Missing returns the names of the file's products that are not in the
// catalogue, as written, in file order.
func (imp *Import) Missing() []string {
	out := []string{}
	for _, r := range imp.Rows {
		if r.Product == nil {
			out = append(out, r.Name)
		}
	}
	return out
}

// byMonth returns the cells to write, one slice per month of the file.
func (imp *Import) byMonth() [][]sourcedCell {
	out := make([][]sourcedCell, len(imp.Months))
	for _, r := range imp.Rows {
		if r.Product == nil {
			continue
		}
		for _, c := range r.Cells {
			out[c.Month] = append(out[c.Month], sourcedCell{
				Cell: Cell{ProductID: r.Product.ID, Month: imp.Months[c.Month], Quantity: c.Quantity},
				name: r.Product.Name, ref: c.Ref,
			})
		}
	}
	return out
}
