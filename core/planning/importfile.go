package planning

import (
	"errors"
	"fmt"
	"strings"

	"primeur/core"
	"primeur/core/calendar"
	"primeur/core/catalog"
	"primeur/core/decimal"
	"primeur/core/printable"
	"primeur/core/sheets"
)

// Limits of a file import (PRODUCT §13). Each one is checked before the
// work it bounds: the size before anything is read, a zip's directory
// before anything is inflated, the rows and columns while a sheet is read
// (core/sheets).
const (
	// MaxImportBytes bounds the file itself (the upload).
	MaxImportBytes = 5 << 20
	// UnzipSizeLimit bounds the declared and real uncompressed size of all
	// the parts of an .xlsx or .ods together.
	UnzipSizeLimit = 20 << 20
	// MaxZipEntries bounds the parts of an .xlsx or .ods; a real one has a
	// dozen.
	MaxZipEntries = 100
	// MaxImportRows bounds the product rows of the sheet.
	MaxImportRows = 10_000
	// MaxImportMonths bounds the month columns.
	MaxImportMonths = 36
)

// ImportField is the multipart field carrying the file (PRODUCT §3), and the
// field import errors are reported on.
const ImportField = "importfile"

// ImportSheetField is the upload's field naming the sheet to read, and the
// field of the refusals about the sheet chosen.
const ImportSheetField = "sheet"

// The menus that save a workbook in a format read, in French (Excel, then
// LibreOffice Calc).
const howToSave = "Dans Excel : Fichier > Enregistrer sous (ou Enregistrer une copie), type « Classeur Excel (*.xlsx) ». " +
	"Dans LibreOffice Calc : Fichier > Enregistrer sous…, type « Excel 2007-365 (.xlsx) » ou « Classeur ODF (.ods) »."

// French messages of the file import. Those with verbs take the cell
// reference ("B4") and what it holds.
const (
	MsgImportExtension    = "Ce type de fichier n'est pas lu : importez un classeur .xlsx (Excel), .ods (LibreOffice) ou un fichier .csv."
	MsgImportLegacy       = "Les classeurs Excel 97-2003 (.xls) ne sont pas lus : enregistrez une copie au format .xlsx ou .ods, puis importez-la. " + howToSave
	MsgImportMacro        = "Les classeurs Excel avec macros (.xlsm, .xlsb) ne sont pas lus : enregistrez une copie au format .xlsx ou .ods, puis importez-la (les macros n'y sont pas gardées). " + howToSave
	MsgImportTooBig       = "Le fichier dépasse la taille maximale de 5 Mo."
	MsgImportNoFile       = "Aucun fichier reçu : choisissez un fichier .xlsx, .ods ou .csv."
	MsgImportNotXLSX      = "Ce fichier n'est pas un classeur Excel .xlsx lisible."
	MsgImportNotODS       = "Ce fichier n'est pas un classeur OpenDocument .ods lisible."
	MsgImportNotCSV       = "Ce fichier n'est pas un texte .csv lisible : enregistrez le tableau au format « CSV (séparateur : point-virgule) » ou « CSV UTF-8 », ou importez le classeur lui-même (.xlsx ou .ods)."
	MsgImportEncrypted    = "Ce fichier est protégé par un mot de passe ou enregistré au format Excel 97-2003 : enregistrez-le sans mot de passe au format .xlsx, puis réessayez."
	MsgImportPassword     = "Ce classeur est protégé par un mot de passe : enregistrez-en une copie sans mot de passe, puis réessayez."
	MsgImportEntries      = "Ce classeur contient trop d'éléments (100 au plus) : enregistrez une copie ne contenant que le tableau des besoins."
	MsgImportInflated     = "Ce classeur est trop volumineux une fois décompressé (20 Mo au plus)."
	MsgImportEmpty        = "Le classeur ne contient aucune feuille remplie."
	MsgImportNoHeader     = "Aucune feuille du classeur ne contient le tableau des besoins : une ligne d'en-tête avec une colonne « Produit » suivie d'une colonne par mois (par exemple « janv. 2027 », 01/2027 ou une date)."
	MsgImportNoMonths     = "La ligne d'en-tête (ligne %d, « Produit ») ne contient aucun mois : ajoutez une colonne par mois, par exemple « janv. 2027 », 01/2027 ou une date."
	MsgImportNoRows       = "Le fichier ne contient aucune ligne de produit sous la ligne d'en-tête."
	MsgImportManyMonths   = "Le fichier contient trop de colonnes de mois (36 au plus)."
	MsgImportManyRows     = "Le fichier contient trop de lignes de produits (10 000 au plus)."
	msgImportSheets       = "Plusieurs feuilles contiennent un tableau de besoins (%s) et aucune n'est la feuille active : choisissez celle à importer."
	msgImportNoSheet      = "Le classeur n'a pas de feuille « %s » : ses feuilles sont %s."
	msgImportSheetEmpty   = "La feuille « %s » ne contient pas le tableau des besoins : une ligne d'en-tête avec une colonne « Produit » suivie d'une colonne par mois (par exemple « janv. 2027 », 01/2027 ou une date)."
	msgImportBadMonth     = "En-tête de mois illisible en %s (« %s ») : indiquez un mois et son année, par exemple « janv. 2027 », 01/2027 ou une date."
	msgImportNoYear       = "En-tête de mois sans année en %s (« %s ») : indiquez aussi l'année, par exemple « %s 2027 »."
	msgImportDupMonth     = "Le mois de %s (%s) figure déjà en %s : gardez une seule colonne par mois."
	msgImportNoName       = "Nom de produit manquant en %s : indiquez le produit de cette ligne, ou videz la ligne."
	msgImportDupProduct   = "Le produit « %s » figure deux fois (lignes %d et %d) : gardez une seule ligne par produit."
	msgImportText         = "Quantité illisible en %s (« %s ») : saisissez un nombre, par exemple 12,5, ou laissez la case vide."
	msgImportNegative     = "Quantité négative en %s (« %s ») : saisissez un nombre positif, ou laissez la case vide."
	msgImportPieces       = "Quantité incorrecte en %s (« %s ») : le catalogue compte « %s » en %s ; saisissez un nombre entier."
	msgImportCell         = "Quantité incorrecte en %s (%s) : %s"
	msgImportOutside      = "Valeur en %s (« %s ») dans une colonne sans mois : indiquez le mois en tête de colonne, ou videz la colonne."
	msgImportTwice        = "Deux quantités pour le même mois (%s et %s, sous un en-tête fusionné) : gardez-en une seule."
	msgImportFormula      = "Formule impossible à calculer en %s (« =%s ») : remplacez-la par sa valeur."
	msgImportFormulaError = "Formule en erreur en %s (%s) : corrigez-la, ou remplacez-la par une quantité."
	msgImportUnit         = "Unité en %s (« %s ») : le catalogue compte « %s » en %s ; indiquez la quantité en %s."
	msgImportMore         = "… et %d autres problèmes."
)

// msgImportUnknownUnit refuses a unit that is none of the units of need:
// "Unité inconnue en B2 (« grammes ») : indiquez kg, litres, pièces,
// douzaines, bottes, barquettes, bouteilles ou pots." (every unit of
// catalog.Units, kg by its symbol).
var msgImportUnknownUnit = func() string {
	names := make([]string, 0, len(catalog.Units))
	for _, u := range catalog.Units {
		if u.ID == catalog.Kg {
			names = append(names, u.Symbol)
		} else {
			names = append(names, u.Plural)
		}
	}
	last := len(names) - 1
	return "Unité inconnue en %s (« %s ») : indiquez " + strings.Join(names[:last], ", ") + " ou " + names[last] + "."
}()

// Bounds of what an answer echoes of the file (PRODUCT §13 "Uploads"):
// a name as written, at most maxEcho characters, and at most
// maxEchoedNames of the names missing from the catalogue and of the
// roundings.
const (
	maxEcho        = 80
	maxEchoedNames = 100
)

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
	// Line is the row number in the sheet (1 is the sheet's first).
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
	Read     string      `json:"read" doc:"The value as the file holds it (40 characters at most)" example:"38.583333"`
	Quantity decimal.Dec `json:"quantity" doc:"The quantity imported" example:"38.58"`
}

// ImportSuggestion is a product name of the file that is not in the
// catalogue, with the catalogue's closest name.
type ImportSuggestion struct {
	Name    string `json:"name" doc:"Product name as written in the file (80 characters at most)" example:"Tomates cerises"`
	Product string `json:"product" doc:"The closest catalogue name" example:"Tomate cerise"`
}

// Import is a parsed file, checked and ready to apply.
type Import struct {
	// Sheet is the name of the sheet read; Sheets every sheet holding a
	// needs table, in the file's order (Sheet among them).
	Sheet  string
	Sheets []string
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
			out = append(out, ImportSuggestion{Name: excerpt(r.Name), Product: r.Suggestion})
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
// it: its name (a format read) and its size.
func CheckImportFile(name string, size int64) error {
	if _, err := sheets.FormatOf(name); err != nil {
		return fileError(err, "")
	}
	if size > MaxImportBytes {
		return core.Refuse(core.ErrTooLarge, MsgImportTooBig)
	}
	return nil
}

// fileError is the refusal of a file core/sheets could not read.
func fileError(err error, format sheets.Format) error {
	switch {
	case errors.Is(err, sheets.ErrLegacy):
		return importError(MsgImportLegacy)
	case errors.Is(err, sheets.ErrMacro):
		return importError(MsgImportMacro)
	case errors.Is(err, sheets.ErrFormat):
		return importError(MsgImportExtension)
	case errors.Is(err, sheets.ErrEncrypted) && format == sheets.XLSX:
		return importError(MsgImportEncrypted)
	case errors.Is(err, sheets.ErrEncrypted):
		return importError(MsgImportPassword)
	case errors.Is(err, sheets.ErrParts):
		return importError(MsgImportEntries)
	case errors.Is(err, sheets.ErrInflated):
		return importError(MsgImportInflated)
	case format == sheets.ODS:
		return importError(MsgImportNotODS)
	case format == sheets.CSV:
		return importError(MsgImportNotCSV)
	}
	return importError(MsgImportNotXLSX)
}

// importLimits bound the reading of a file (core/sheets).
var importLimits = sheets.Limits{
	Parts:    MaxZipEntries,
	Inflated: UnzipSizeLimit,
	Sheets:   maxSheets,
	Rows:     maxSheetRows,
	Columns:  maxColumns,
	Formulas: maxFormulas,
	Cells:    maxFormulaWork,
	Range:    maxFormulaCells,
}

// ParseOptions tune ParseFile.
type ParseOptions struct {
	// Sheet names the sheet to read; "" lets the file say (ParseFile).
	Sheet string
	// Month is the current month: a table whose months are all before it
	// cannot be imported, and does not hide another's. Zero for none.
	Month calendar.Month
}

// ParseFile reads an import file (PRODUCT §14 "File format"): an .xlsx,
// .ods or .csv, the sheet holding the needs table — opts.Sheet, or the
// active sheet when it holds one, or the only sheet holding one (a table
// of past months only giving way to one with months to come) — its header
// row "Produit" then one column per month, then one row per product with
// its quantities; empty cells are skipped. Products are matched with ix
// by name, whatever the case and accents. Every problem is a
// core.ValidationError on ImportField (ImportSheetField for the sheet's
// choice) with a French message naming the cell, or a core.Refusal
// (ErrTooLarge) for the size. Nothing is written: Apply does that.
func ParseFile(name string, data []byte, ix *catalog.Index, opts ParseOptions) (imp *Import, err error) {
	if err := CheckImportFile(name, int64(len(data))); err != nil {
		return nil, err
	}
	format, _ := sheets.FormatOf(name)
	// The readers parse untrusted bytes; should one ever panic on them
	// (fuzzing has not made it), the upload is an unreadable file, not a
	// crash.
	defer func() {
		if r := recover(); r != nil {
			imp, err = nil, fileError(sheets.ErrUnreadable, format)
		}
	}()
	wb, err := sheets.Open(name, data, importLimits)
	if err != nil {
		return nil, fileError(err, format)
	}
	defer wb.Close()
	chosen, candidates, err := chooseSheet(wb, opts)
	if err != nil {
		return nil, err
	}
	s, err := wb.Sheet(chosen, maxSheetRows)
	if err != nil {
		return nil, fileError(err, format)
	}
	t := newTable(wb, s, ix)
	if err := t.read(); err != nil {
		return nil, err
	}
	if err := t.err(); err != nil {
		return nil, err
	}
	if len(t.imp.Rows) == 0 {
		return nil, importError(MsgImportNoRows)
	}
	t.imp.Sheet = excerpt(wb.Names[chosen])
	for _, i := range candidates {
		t.imp.Sheets = append(t.imp.Sheets, excerpt(wb.Names[i]))
	}
	return &t.imp, nil
}

// chooseSheet finds the sheet to read, and every sheet holding a needs
// table (in the workbook's order).
func chooseSheet(wb *sheets.Workbook, opts ParseOptions) (int, []int, error) {
	var candidates, open, visible []int
	filled, monthless := false, 0
	for i := range wb.Names {
		s, err := wb.Sheet(i, headerSearchRows)
		if err != nil {
			return 0, nil, fileError(err, wb.Format)
		}
		h := findHeader(wb, s)
		filled = filled || len(s.Rows) > 0
		if h.monthless > 0 && monthless == 0 && !wb.Hidden[i] {
			monthless = h.monthless
		}
		if h.row == 0 {
			continue
		}
		candidates = append(candidates, i)
		if !wb.Hidden[i] {
			visible = append(visible, i)
		}
		if !wb.Hidden[i] && (opts.Month == 0 || h.last >= opts.Month) {
			open = append(open, i)
		}
	}
	if opts.Sheet != "" {
		i := sheetNamed(wb, opts.Sheet)
		switch {
		case i < 0:
			return 0, nil, core.Invalid(ImportSheetField, fmt.Sprintf(msgImportNoSheet, excerpt(strings.TrimSpace(opts.Sheet)), quoted(wb.Names, len(wb.Names))))
		case !contains(candidates, i):
			return 0, nil, core.Invalid(ImportSheetField, fmt.Sprintf(msgImportSheetEmpty, excerpt(wb.Names[i])))
		}
		return i, candidates, nil
	}
	pool := open
	if len(pool) == 0 {
		pool = visible
	}
	if len(pool) == 0 {
		pool = candidates
	}
	switch {
	case len(pool) == 0 && !filled:
		return 0, nil, importError(MsgImportEmpty)
	case len(pool) == 0 && monthless > 0:
		return 0, nil, importError(MsgImportNoMonths, monthless)
	case len(pool) == 0:
		return 0, nil, importError(MsgImportNoHeader)
	case contains(pool, wb.Active):
		return wb.Active, candidates, nil
	case len(pool) == 1:
		return pool[0], candidates, nil
	}
	names := make([]string, len(pool))
	for i, n := range pool {
		names[i] = excerpt(wb.Names[n])
	}
	return 0, nil, &core.ValidationError{Fields: []core.FieldError{{
		Field: ImportSheetField, Message: fmt.Sprintf(msgImportSheets, quoted(wb.Names, 0, pool...)), Value: names,
	}}}
}

// sheetNamed finds the sheet a user named: its exact name, else the one
// name equal to it whatever the case and spaces around, else the one name
// whose excerpt it is (an answer names a sheet by its first 80
// characters: the interface sends back what it was given); -1 when none.
func sheetNamed(wb *sheets.Workbook, name string) int {
	for i, n := range wb.Names {
		if n == name {
			return i
		}
	}
	for _, same := range []func(n string) bool{
		func(n string) bool { return strings.EqualFold(strings.TrimSpace(n), strings.TrimSpace(name)) },
		func(n string) bool { return excerpt(n) == name },
	} {
		found := -1
		for i, n := range wb.Names {
			if same(n) {
				if found >= 0 {
					return -1
				}
				found = i
			}
		}
		if found >= 0 {
			return found
		}
	}
	return -1
}

// quoted lists sheet names in French quotes, "« 2026 », « 2027 »": the
// first n names, or those of indexes.
func quoted(names []string, n int, indexes ...int) string {
	if len(indexes) == 0 {
		for i := range min(n, len(names)) {
			indexes = append(indexes, i)
		}
	}
	parts := make([]string, len(indexes))
	for k, i := range indexes {
		parts[k] = "« " + excerpt(names[i]) + " »"
	}
	return strings.Join(parts, ", ")
}

func contains(list []int, v int) bool {
	for _, x := range list {
		if x == v {
			return true
		}
	}
	return false
}

// excerpt bounds what an answer echoes of a name the file holds.
func excerpt(s string) string {
	return printable.Cut(s, maxEcho)
}

// clip shortens what a cell holds for an error message.
func clip(s string) string {
	return printable.Cut(s, 41)
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
// catalogue, as written (each cut to 80 characters), in file order: the
// first 100 of them, and how many there are.
func (imp *Import) Missing() ([]string, int) {
	out, n := []string{}, 0
	for _, r := range imp.Rows {
		if r.Product == nil {
			if n < maxEchoedNames {
				out = append(out, excerpt(r.Name))
			}
			n++
		}
	}
	return out, n
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
