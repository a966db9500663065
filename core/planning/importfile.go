package planning

import (
	"archive/zip"
	"bytes"
	"fmt"
	"io"
	"path/filepath"
	"strconv"
	"strings"

	"github.com/xuri/excelize/v2"

	"primeur/core"
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
	MsgImportExtension    = "Seuls les fichiers Excel au format .xlsx sont acceptés."
	MsgImportTooBig       = "Le fichier dépasse la taille maximale de 5 Mo."
	MsgImportNoFile       = "Aucun fichier reçu : choisissez un fichier .xlsx."
	MsgImportNotXLSX      = "Ce fichier n'est pas un classeur Excel .xlsx lisible."
	MsgImportEncrypted    = "Ce fichier est protégé par un mot de passe ou enregistré au format Excel 97-2003 : enregistrez-le sans mot de passe au format .xlsx, puis réessayez."
	MsgImportEntries      = "Ce classeur contient trop d'éléments (100 au plus) : enregistrez une copie ne contenant que le tableau des besoins."
	MsgImportInflated     = "Ce classeur est trop volumineux une fois décompressé (20 Mo au plus)."
	MsgImportEmpty        = "Le classeur ne contient aucune feuille remplie."
	MsgImportNoHeader     = "Aucune feuille du classeur ne contient le tableau des besoins : une ligne d'en-tête avec une colonne « Produit » suivie d'une colonne par mois (par exemple « janv. 2027 », 01/2027 ou une date)."
	MsgImportNoMonths     = "La ligne d'en-tête (ligne %d, « Produit ») ne contient aucun mois : ajoutez une colonne par mois, par exemple « janv. 2027 », 01/2027 ou une date."
	MsgImportNoRows       = "Le fichier ne contient aucune ligne de produit sous la ligne d'en-tête."
	MsgImportManyMonths   = "Le fichier contient trop de colonnes de mois (36 au plus)."
	MsgImportManyRows     = "Le fichier contient trop de lignes de produits (10 000 au plus)."
	msgImportBadMonth     = "En-tête de mois illisible en %s (« %s ») : indiquez un mois et son année, par exemple « janv. 2027 », 01/2027 ou une date."
	msgImportNoYear       = "En-tête de mois sans année en %s (« %s ») : indiquez aussi l'année, par exemple « %s 2027 »."
	msgImportDupMonth     = "Le mois de %s (%s) figure déjà en %s : gardez une seule colonne par mois."
	msgImportNoName       = "Nom de produit manquant en %s : indiquez le produit de cette ligne, ou videz la ligne."
	msgImportDupProduct   = "Le produit « %s » figure deux fois (lignes %d et %d) : gardez une seule ligne par produit."
	msgImportText         = "Quantité illisible en %s (« %s ») : saisissez un nombre, par exemple 12,5, ou laissez la case vide."
	msgImportNegative     = "Quantité négative en %s (« %s ») : saisissez un nombre positif, ou laissez la case vide."
	msgImportPieces       = "Quantité incorrecte en %s (« %s ») : %s se compte en pièces ; saisissez un nombre entier."
	msgImportCell         = "Quantité incorrecte en %s (%s) : %s"
	msgImportOutside      = "Valeur en %s (« %s ») dans une colonne sans mois : indiquez le mois en tête de colonne, ou videz la colonne."
	msgImportTwice        = "Deux quantités pour le même mois (%s et %s, sous un en-tête fusionné) : gardez-en une seule."
	msgImportFormula      = "Formule impossible à calculer en %s (« %s ») : remplacez-la par sa valeur."
	msgImportFormulaError = "Formule en erreur en %s (%s) : corrigez-la, ou remplacez-la par une quantité."
	msgImportUnknownUnit  = "Unité inconnue en %s (« %s ») : indiquez kg ou pièce."
	msgImportUnit         = "Unité en %s (« %s ») : %s se compte en %s dans le catalogue ; indiquez la quantité en %s."
	msgImportMore         = "… et %d autres problèmes."
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
	formulas, err := checkZip(data)
	if err != nil {
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
	props, err := f.GetWorkbookProps()
	if err != nil {
		return nil, importError(MsgImportNotXLSX)
	}
	date1904 := props.Date1904 != nil && *props.Date1904
	filled, monthless := false, 0
	for n, sheet := range f.GetSheetList() {
		if n == maxSheets {
			break
		}
		t := &table{f: f, sheet: sheet, ix: ix, date1904: date1904, formulas: formulas, seen: map[string]int{}}
		found, any, err := t.read()
		if err != nil || found {
			return t.result(err)
		}
		filled = filled || any
		if monthless == 0 {
			monthless = t.monthless
		}
	}
	switch {
	case !filled:
		return nil, importError(MsgImportEmpty)
	case monthless > 0:
		return nil, importError(MsgImportNoMonths, monthless)
	}
	return nil, importError(MsgImportNoHeader)
}

// read reads the sheet: found is whether it holds the needs table (then
// read whole), any whether it holds anything at all.
func (t *table) read() (found, any bool, err error) {
	rows, err := t.f.Rows(t.sheet)
	if err != nil {
		return false, false, importError(MsgImportNotXLSX)
	}
	defer rows.Close()
	for rows.Next() {
		t.line++
		cols, err := rows.Columns(rawCells)
		if err != nil {
			return false, any, importError(MsgImportNotXLSX)
		}
		blank := isBlank(cols)
		any = any || !blank
		switch {
		case t.header == 0 && t.line > headerSearchRows:
			return false, any, nil
		case t.header == 0 && !blank:
			if _, err := t.readHeader(cols); err != nil {
				return false, any, err
			}
		case t.header == 0:
		case blank && !t.formulas:
		default:
			if err := t.readRow(cols); err != nil {
				return true, any, err
			}
		}
	}
	if rows.Error() != nil {
		return false, any, importError(MsgImportNotXLSX)
	}
	return t.header > 0, any, nil
}

// result is the import read from the table, or its refusal.
func (t *table) result(err error) (*Import, error) {
	if err != nil {
		return nil, err
	}
	if err := t.err(); err != nil {
		return nil, err
	}
	if len(t.imp.Rows) == 0 {
		return nil, importError(MsgImportNoRows)
	}
	return &t.imp, nil
}

func isBlank(cols []string) bool {
	for _, c := range cols {
		if strings.TrimSpace(c) != "" {
			return false
		}
	}
	return true
}

var rawCells = excelize.Options{RawCellValue: true}

// checkZip reads the zip directory and refuses, before anything is
// inflated, too many entries or too much declared content. Then it inflates
// each entry once, without keeping it, to check that it holds exactly its
// declared size and checksum: excelize ignores read errors and would take a
// damaged or lying entry (a zip bomb declaring a small size) as a truncated
// part, which could import half a sheet.
func checkZip(data []byte) (formulas bool, err error) {
	zr, err := zip.NewReader(bytes.NewReader(data), int64(len(data)))
	if err != nil {
		return false, importError(MsgImportNotXLSX)
	}
	if len(zr.File) > MaxZipEntries {
		return false, importError(MsgImportEntries)
	}
	var total uint64
	for _, e := range zr.File {
		if e.UncompressedSize64 > UnzipSizeLimit {
			return false, importError(MsgImportInflated)
		}
		total += e.UncompressedSize64
	}
	if total > UnzipSizeLimit {
		return false, importError(MsgImportInflated)
	}
	for _, e := range zr.File {
		rc, err := e.Open()
		if err != nil {
			return false, importError(MsgImportNotXLSX)
		}
		// Go's zip reader fails past the declared size and on a checksum
		// mismatch, so this reads at most the declared sizes checked above.
		w := io.Discard
		var scan *formulaScan
		if strings.Contains(e.Name, "worksheets/") && !formulas {
			scan = &formulaScan{}
			w = scan
		}
		_, err = io.Copy(w, rc)
		rc.Close()
		if err != nil {
			return false, importError(MsgImportNotXLSX)
		}
		formulas = formulas || scan != nil && scan.found
	}
	return formulas, nil
}

// formulaScan looks through a worksheet's XML for a formula element,
// <f> or <x:f …>, across the chunks it is written in.
type formulaScan struct {
	tail  []byte
	found bool
}

// formulaTags are the openings of a formula element: <f>, <f t="shared"…>,
// and the same with a namespace prefix (<x:f>).
var formulaTags = [][]byte{[]byte("<f>"), []byte("<f "), []byte(":f>"), []byte(":f ")}

func (s *formulaScan) Write(p []byte) (int, error) {
	if s.found {
		return len(p), nil
	}
	buf := append(s.tail, p...)
	for _, tag := range formulaTags {
		if bytes.Contains(buf, tag) {
			s.found = true
			return len(p), nil
		}
	}
	keep := min(len(buf), 16)
	s.tail = append(s.tail[:0], buf[len(buf)-keep:]...)
	return len(p), nil
}

func cellRef(col, row int) string {
	if col >= 1 && col <= len(columnNames) && row >= 1 {
		return columnNames[col-1] + strconv.Itoa(row)
	}
	ref, err := excelize.CoordinatesToCellName(col, row)
	if err != nil {
		return fmt.Sprintf("L%dC%d", row, col)
	}
	return ref
}

// columnNames are the letters of the first columns, "A" to "CZ", which
// cellRef names without recomputing them for every cell.
var columnNames = func() []string {
	out := make([]string, 104)
	for i := range out {
		out[i], _ = excelize.ColumnNumberToName(i + 1)
	}
	return out
}()

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
