package sheets_test

import (
	"archive/zip"
	"bytes"
	"errors"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/xuri/excelize/v2"
	"golang.org/x/text/encoding/charmap"
	"golang.org/x/text/encoding/unicode"

	"primeur/core/sheets"
	"primeur/core/sheets/sheetstest"
)

// realDir holds files made by LibreOffice (a French Calc driven through
// UNO), Gnumeric, openpyxl and ExcelJS-like writers: testdata/xlsx/real.
const realDir = "../../testdata/xlsx/real"

func open(t testing.TB, name string, data []byte) *sheets.Workbook {
	t.Helper()
	wb, err := sheets.Open(name, data, limits)
	if err != nil {
		t.Fatalf("%s: %v", name, err)
	}
	t.Cleanup(wb.Close)
	return wb
}

func sheet(t testing.TB, wb *sheets.Workbook, i int) *sheets.Sheet {
	t.Helper()
	s, err := wb.Sheet(i, 1000)
	if err != nil {
		t.Fatal(err)
	}
	return s
}

// cell is a cell expected in a sheet.
type cell struct {
	sheet int
	ref   string
	kind  sheets.Kind
	value string
}

// TestReadsWhatLibreOfficeSaves reads files saved by LibreOffice Calc in
// every format: the sheets and the active one, values with their kind,
// merged cells, formulas with their stored results.
func TestReadsWhatLibreOfficeSaves(t *testing.T) {
	tests := []struct {
		file   string
		names  []string
		active int
		cells  []cell
		merged map[int][]string
	}{
		{"libreoffice-duplicated-sheet.ods", []string{"Besoins", "Besoins_2"}, 1, []cell{
			{0, "B2", sheets.Number, "120"}, {1, "B2", sheets.Number, "150"}, {0, "C3", sheets.Number, "80"},
			{1, "C3", sheets.Empty, ""}, {1, "A5", sheets.Text, "Poireau"}, {1, "B1", sheets.Text, "janv. 2027"},
		}, nil},
		{"libreoffice-duplicated-sheet.xlsx", []string{"Besoins", "Besoins_2"}, 1, []cell{
			{0, "B2", sheets.Number, "120"}, {1, "B2", sheets.Number, "150"}, {1, "C3", sheets.Empty, ""},
			{1, "A5", sheets.Text, "Poireau"}, {1, "D5", sheets.Number, "40"},
		}, nil},
		{"libreoffice-year-tabs-past-active.ods", []string{"2026", "2027"}, 0, []cell{{1, "K5", sheets.Number, "49"}}, nil},
		{"libreoffice-two-row-header.ods", []string{"Besoins"}, 0, []cell{
			{0, "A1", sheets.Text, "Produit"}, {0, "A2", sheets.Empty, ""}, {0, "B2", sheets.Text, "kg / pièces"},
			{0, "C3", sheets.Number, "95.5"}, {0, "C5", sheets.Empty, ""},
		}, map[int][]string{0: {"A1:A2"}}},
		{"libreoffice-two-row-header.xlsx", []string{"Besoins"}, 0, []cell{
			{0, "A1", sheets.Text, "Produit"}, {0, "B2", sheets.Text, "kg / pièces"}, {0, "C3", sheets.Number, "95.5"},
		}, map[int][]string{0: {"A1:A2"}}},
		{"libreoffice-merged-month.xlsx", []string{"Besoins"}, 0, []cell{{0, "B1", sheets.Text, "janvier 2027"}}, map[int][]string{0: {"B1:C1"}}},
		{"libreoffice-two-tables.ods", []string{"Mode d'emploi", "2027", "2028"}, 0, []cell{{2, "A3", sheets.Text, "Poireau"}}, nil},
		{"libreoffice-csv-utf8.csv", []string{"libreoffice-csv-utf8"}, 0, csvCells(), nil},
		{"libreoffice-csv-cp1252.csv", []string{"libreoffice-csv-cp1252"}, 0, csvCells(), nil},
		{"libreoffice-csv-comma.csv", []string{"libreoffice-csv-comma"}, 0, csvCells(), nil},
	}
	for _, tt := range tests {
		t.Run(tt.file, func(t *testing.T) {
			wb := open(t, tt.file, mustRead(t, filepath.Join(realDir, tt.file)))
			if !slices.Equal(wb.Names, tt.names) || wb.Active != tt.active {
				t.Fatalf("sheets %q, active %d", wb.Names, wb.Active)
			}
			for _, c := range tt.cells {
				s := sheet(t, wb, c.sheet)
				got := cellAt(s, refCol(c.ref), refRow(c.ref))
				if got.Kind != c.kind || got.Value != c.value || got.Pending {
					t.Errorf("%s!%s = %s %q, want %s %q", s.Name, c.ref, kindName(got.Kind), got.Value, kindName(c.kind), c.value)
				}
			}
			for i, want := range tt.merged {
				var got []string
				for _, g := range sheet(t, wb, i).Merged {
					got = append(got, g.String())
				}
				if !slices.Equal(got, want) {
					t.Errorf("merged %q, want %q", got, want)
				}
			}
		})
	}
}

func csvCells() []cell {
	return []cell{
		{0, "A1", sheets.Text, "Besoins 2027 — Épicerie du Lac"}, {0, "C2", sheets.Text, "févr. 2027"},
		{0, "B3", sheets.Text, "1\u00a0200"}, {0, "C3", sheets.Text, "95,5"}, {0, "A5", sheets.Text, "Céleri-rave"},
		{0, "C5", sheets.Text, "NC"}, {0, "D4", sheets.Empty, ""},
	}
}

func refCol(ref string) int { c, _, _ := sheets.ParseCellName(ref); return c }
func refRow(ref string) int { _, r, _ := sheets.ParseCellName(ref); return r }

// TestFormulasStatus: a formula with its stored result reads as that
// result; one without (openpyxl, ExcelJS) is pending until computed, a
// shared one with its own references.
func TestFormulasStatus(t *testing.T) {
	wb := open(t, "f.xlsx", mustRead(t, filepath.Join(realDir, "libreoffice-formulas.xlsx")))
	s := sheet(t, wb, 0)
	if c := cellAt(s, 2, 2); c.Pending || c.Kind != sheets.Number || !strings.HasPrefix(c.Value, "38.58333") || c.Formula != "231.5/6" {
		t.Errorf("stored result: %+v", c)
	}
	wb = open(t, "f.xlsx", mustRead(t, filepath.Join(realDir, "openpyxl-formulas.xlsx")))
	s = sheet(t, wb, 1)
	c := cellAt(s, 3, 2)
	if !c.Pending || c.Formula != "B2*2" {
		t.Fatalf("pending: %+v", c)
	}
	if v, err := wb.Compute(s, 3, 2); err != nil || v.Kind != sheets.Number || v.Value != "20" {
		t.Errorf("computed %+v %v", v, err)
	}
	wb = open(t, "f.xlsx", mustRead(t, filepath.Join(realDir, "exceljs-shared-formula.xlsx")))
	s = sheet(t, wb, 1)
	c = cellAt(s, 3, 3)
	if !c.Pending || c.Formula != "" || s.Formula(c, 3) != "ROUND(Historique!C3*1.1,0)" {
		t.Fatalf("shared: %+v %q", c, s.Formula(c, 3))
	}
	if v, err := wb.Compute(s, 3, 3); err != nil || v.Value != "133" {
		t.Errorf("computed %+v %v", v, err)
	}
}

// TestExcelizeAloneMisreadsSharedFormulas is the upstream report's
// evidence: excelize v2.11.0 expands a shared formula referring to another
// sheet without moving that reference, so every cell of the group gets the
// first cell's value (111); Workbook.Compute expands it itself. Should this
// test fail, excelize has been fixed.
func TestExcelizeAloneMisreadsSharedFormulas(t *testing.T) {
	f, err := excelize.OpenReader(bytes.NewReader(mustRead(t, filepath.Join(realDir, "exceljs-shared-formula.xlsx"))))
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	formula, _ := f.GetCellFormula("Besoins", "C3")
	v, _ := f.CalcCellValue("Besoins", "C3")
	if formula != "ROUND(Historique!B2*1.1,0)" || v != "111" {
		t.Errorf("excelize now gives %q = %q for C3: the shared formula bug may be fixed upstream", formula, v)
	}
}

func TestShiftAndAnalyse(t *testing.T) {
	for _, tt := range []struct {
		formula    string
		dCol, dRow int
		want       string // "" when it cannot move
	}{
		{"B2*2", 1, 1, "C3*2"},
		{"Historique!B2*1.1", 1, 0, "Historique!C2*1.1"},
		{"ROUND(Historique!B2*1.1,0)", 2, 1, "ROUND(Historique!D3*1.1,0)"},
		{"SUM('Feuil 1'!B2:C3)", 1, 1, "SUM('Feuil 1'!C3:D4)"},
		{"SUM('l''an dernier'!A1:A2)", 0, 2, "SUM('l''an dernier'!A3:A4)"},
		{"$A$1+A$1+$A1", 1, 1, "$A$1+B$1+$A2"},
		{`"B2"&B2`, 1, 1, `"B2"&C3`},
		{"A1", -1, 0, ""},
		{"A1", 0, -1, ""},
		{"Prix*2", 1, 1, ""},
	} {
		got, ok := sheets.ShiftFormula(tt.formula, tt.dCol, tt.dRow)
		if ok != (tt.want != "") || ok && got != tt.want {
			t.Errorf("shift %q by %d,%d = %q %v, want %q", tt.formula, tt.dCol, tt.dRow, got, ok, tt.want)
		}
	}
	for _, tt := range []struct {
		formula string
		refs    []string // "" sheet for the formula's own
		bad     string   // part of why it is refused; "" when computable
	}{
		{"SUM(B2:M2)*2", []string{"!B2:M2"}, ""},
		{"ROUND(Historique!B2*1.1,0)", []string{"Historique!B2:B2"}, ""},
		{"'Autre feuille'!A1+$B$3", []string{"Autre feuille!A1:A1", "!B3:B3"}, ""},
		{`IF(B2>1,"oui","non")`, []string{"!B2:B2"}, ""},
		{"IF(B2,1,2)", nil, "IF without a comparison"},
		{`SUM("12",3)`, nil, "text given to SUM"},
		{"1E3", nil, "exponent"},
		{"SUM(B:B)", nil, "whole"},
		{"SUM(2:2)", nil, "whole rows"},
		{"Prix*2", nil, "name Prix"},
		{"OFFSET(A1,1,1)", nil, "function OFFSET"},
		{"SUM(A1:B2 B1:C2)", nil, "intersection"},
		{"SUM((A1,B2))", nil, "union"},
		{"SUM({1,2})", nil, "character {"},
		{"[1]Feuil1!A1", nil, "character ["},
		{"SUM(Feuil1:Feuil3!A1)", nil, "whole columns"},
		{"Table1[Col]", nil, "Table1"},
	} {
		refs, bad := sheets.Analyse(tt.formula)
		if tt.bad != "" {
			if !strings.Contains(bad, tt.bad) {
				t.Errorf("analyse %q: %q, want it refused for %q", tt.formula, bad, tt.bad)
			}
			continue
		}
		if bad != "" || !slices.Equal(refs, tt.refs) {
			t.Errorf("analyse %q = %q %q, want %q", tt.formula, refs, bad, tt.refs)
		}
	}
}

// TestCSVTexts: the encodings and separators spreadsheet programs write,
// rows numbered as a spreadsheet shows them (empty lines count).
func TestCSVTexts(t *testing.T) {
	utf16 := func(s string) []byte {
		out, err := unicode.UTF16(unicode.LittleEndian, unicode.UseBOM).NewEncoder().Bytes([]byte(s))
		if err != nil {
			t.Fatal(err)
		}
		return out
	}
	cp1252 := func(s string) []byte {
		out, err := charmap.Windows1252.NewEncoder().Bytes([]byte(s))
		if err != nil {
			t.Fatal(err)
		}
		return out
	}
	want := [][]string{{"Produit", "févr. 2027"}, {"Céleri", "12,5"}}
	for _, tt := range []struct {
		name string
		data []byte
		rows [][]string
		nums []int
	}{
		{"utf-8 with a BOM, ;", []byte("\ufeffProduit;févr. 2027\r\nCéleri;12,5\r\n"), want, []int{1, 2}},
		{"utf-8, ,, decimal comma quoted", []byte("Produit,févr. 2027\nCéleri,\"12,5\"\n"), want, []int{1, 2}},
		{"windows-1252, ;", cp1252("Produit;févr. 2027\r\nCéleri;12,5\r\n"), want, []int{1, 2}},
		{"utf-16 (Texte Unicode), tab", utf16("Produit\tfévr. 2027\r\nCéleri\t12,5\r\n"), want, []int{1, 2}},
		{"Excel's sep= line", []byte("sep=,\nProduit,févr. 2027\nCéleri,\"12,5\"\n"), want, []int{1, 2}},
		{"an empty line between", []byte("Produit;févr. 2027\n\nCéleri;12,5"), want, []int{1, 3}},
		{"a quoted line break", []byte("Produit;\"févr.\n2027\"\nCéleri;12,5\n"), [][]string{{"Produit", "févr.\n2027"}, {"Céleri", "12,5"}}, []int{1, 2}},
		{"a title with commas above a ; table", []byte("Besoins, 2027\nProduit;févr. 2027\nCéleri;12,5\n"), [][]string{{"Besoins, 2027"}, want[0], want[1]}, []int{1, 2, 3}},
	} {
		t.Run(tt.name, func(t *testing.T) {
			s := sheet(t, open(t, "b.csv", tt.data), 0)
			var rows [][]string
			var nums []int
			for _, r := range s.Rows {
				var vals []string
				for _, c := range r.Cells {
					vals = append(vals, c.Value)
				}
				rows = append(rows, vals)
				nums = append(nums, r.Num)
			}
			if !slices.EqualFunc(rows, tt.rows, slices.Equal) || !slices.Equal(nums, tt.nums) {
				t.Errorf("rows %q at %v, want %q at %v", rows, nums, tt.rows, tt.nums)
			}
		})
	}
	for _, bad := range [][]byte{[]byte("Produit\x00;x"), {0xD0, 0xCF, 0x11, 0xE0, 0xA1, 0xB1, 0x1A, 0xE1}, []byte("PK\x03\x04....")} {
		if _, err := sheets.Open("b.csv", bad, limits); !errors.Is(err, sheets.ErrUnreadable) {
			t.Errorf("%q: %v", bad, err)
		}
	}
}

// ods writes a minimal OpenDocument spreadsheet around a content body.
func ods(t testing.TB, body, settings, manifest string) []byte {
	t.Helper()
	var buf bytes.Buffer
	z := zip.NewWriter(&buf)
	for _, part := range []struct{ name, content string }{
		{"mimetype", "application/vnd.oasis.opendocument.spreadsheet"},
		{"META-INF/manifest.xml", manifest},
		{"content.xml", `<?xml version="1.0" encoding="UTF-8"?><office:document-content ` +
			`xmlns:office="urn:oasis:names:tc:opendocument:xmlns:office:1.0" xmlns:table="urn:oasis:names:tc:opendocument:xmlns:table:1.0" ` +
			`xmlns:text="urn:oasis:names:tc:opendocument:xmlns:text:1.0" xmlns:style="urn:oasis:names:tc:opendocument:xmlns:style:1.0">` +
			`<office:automatic-styles><style:style style:name="hid" style:family="table"><style:table-properties table:display="false"/></style:style></office:automatic-styles>` +
			`<office:body><office:spreadsheet>` + body + `</office:spreadsheet></office:body></office:document-content>`},
		{"settings.xml", settings},
	} {
		w, err := z.Create(part.name)
		if err == nil {
			_, err = w.Write([]byte(part.content))
		}
		if err != nil {
			t.Fatal(err)
		}
	}
	if err := z.Close(); err != nil {
		t.Fatal(err)
	}
	return buf.Bytes()
}

// TestODSStructures: repeated rows and cells (a million empty rows is one
// element), covered cells, comments, paragraphs, hidden sheets, errors,
// formulas without a stored value.
func TestODSStructures(t *testing.T) {
	body := `<table:table table:name="Cachée" table:style-name="hid"><table:table-row><table:table-cell office:value-type="string"><text:p>x</text:p></table:table-cell></table:table-row></table:table>` +
		`<table:table table:name="Besoins"><table:table-column table:number-columns-repeated="1024"/>` +
		`<table:table-row table:number-rows-repeated="2"><table:table-cell table:number-columns-repeated="1024"/></table:table-row>` +
		`<table:table-row><table:table-cell office:value-type="string"><text:p>Tomate<text:s text:c="2"/>bio</text:p><text:p>ligne 2</text:p>` +
		`<office:annotation><text:p>un commentaire</text:p></office:annotation></table:table-cell>` +
		`<table:table-cell office:value-type="float" office:value="12.5" table:number-columns-repeated="2"><text:p>12,5</text:p></table:table-cell>` +
		`<table:table-cell table:number-columns-spanned="2" office:value-type="float" office:value="3"><text:p>3</text:p></table:table-cell><table:covered-table-cell office:value-type="float" office:value="9"><text:p>9</text:p></table:covered-table-cell>` +
		`<table:table-cell table:formula="of:=1/0" office:value-type="string" office:string-value="" calcext:value-type="error" xmlns:calcext="urn:org:documentfoundation:names:experimental:calc:xmlns:calcext:1.0"><text:p>#DIV/0!</text:p></table:table-cell>` +
		`<table:table-cell table:formula="of:=[.B3]*2" office:value-type="float"/>` +
		`<table:table-cell office:value-type="date" office:date-value="2027-01-01"><text:p>janv. 2027</text:p></table:table-cell>` +
		`</table:table-row>` +
		`<table:table-row table:number-rows-repeated="1048570"><table:table-cell table:number-columns-repeated="1024"/></table:table-row>` +
		`</table:table>`
	settings := `<?xml version="1.0" encoding="UTF-8"?><office:document-settings xmlns:office="urn:oasis:names:tc:opendocument:xmlns:office:1.0" xmlns:config="urn:oasis:names:tc:opendocument:xmlns:config:1.0">` +
		`<office:settings><config:config-item-set config:name="ooo:view-settings"><config:config-item-map-indexed config:name="Views"><config:config-item-map-entry>` +
		`<config:config-item config:name="ActiveTable" config:type="string">Besoins</config:config-item></config:config-item-map-entry></config:config-item-map-indexed></config:config-item-set></office:settings></office:document-settings>`
	wb := open(t, "b.ods", ods(t, body, settings, "<manifest/>"))
	if !slices.Equal(wb.Names, []string{"Cachée", "Besoins"}) || !slices.Equal(wb.Hidden, []bool{true, false}) || wb.Active != 1 {
		t.Fatalf("sheets %q %v, active %d", wb.Names, wb.Hidden, wb.Active)
	}
	s := sheet(t, wb, 1)
	if len(s.Rows) != 1 || s.Rows[0].Num != 3 {
		t.Fatalf("rows %+v", s.Rows)
	}
	r := s.Rows[0]
	for _, tt := range []struct {
		col   int
		kind  sheets.Kind
		value string
	}{
		{1, sheets.Text, "Tomate  bio\nligne 2"}, {2, sheets.Number, "12.5"}, {3, sheets.Number, "12.5"}, {4, sheets.Number, "3"},
		{5, sheets.Empty, ""}, {6, sheets.Error, "#DIV/0!"}, {8, sheets.Date, "2027-01-01"},
	} {
		if c := r.At(tt.col); c.Kind != tt.kind || c.Value != tt.value {
			t.Errorf("col %d: %s %q, want %s %q", tt.col, kindName(c.Kind), c.Value, kindName(tt.kind), tt.value)
		}
	}
	if c := r.At(7); !c.Pending || c.Formula != "[.B3]*2" {
		t.Errorf("pending formula: %+v", c)
	}
	if _, err := wb.Compute(s, 7, 3); !errors.Is(err, sheets.ErrUncomputable) {
		t.Errorf("an .ods formula without its value computed: %v", err)
	}
	if len(s.Merged) != 1 || s.Merged[0].String() != "D3:E3" {
		t.Errorf("merged %v", s.Merged)
	}
	encrypted := ods(t, body, settings, `<manifest:manifest><manifest:file-entry><manifest:encryption-data/></manifest:file-entry></manifest:manifest>`)
	if _, err := sheets.Open("b.ods", encrypted, limits); !errors.Is(err, sheets.ErrEncrypted) {
		t.Errorf("encrypted: %v", err)
	}
}

// TestRefusedFiles: what is not read, and why.
func TestRefusedFiles(t *testing.T) {
	good, err := sheetstest.XLSX(sheetstest.Workbook{Sheets: []sheetstest.Sheet{{Name: "A", Cells: map[string]any{"A1": 1}}}})
	if err != nil {
		t.Fatal(err)
	}
	many := func(n int) []byte {
		var buf bytes.Buffer
		z := zip.NewWriter(&buf)
		for i := range n {
			if _, err := z.Create("x/" + strings.Repeat("a", i+1)); err != nil {
				t.Fatal(err)
			}
		}
		_ = z.Close()
		return buf.Bytes()
	}
	for _, tt := range []struct {
		name string
		data []byte
		err  error
	}{
		{"a.xls", good, sheets.ErrLegacy},
		{"a.xlsm", good, sheets.ErrMacro},
		{"a.xlsb", good, sheets.ErrMacro},
		{"a.pdf", good, sheets.ErrFormat},
		{"a", good, sheets.ErrFormat},
		{"a.xlsx", []byte{0xD0, 0xCF, 0x11, 0xE0, 0xA1, 0xB1, 0x1A, 0xE1, 0, 0}, sheets.ErrEncrypted},
		{"a.xlsx", []byte("Produit;2027-01\n"), sheets.ErrUnreadable},
		{"a.ods", good, sheets.ErrUnreadable},
		{"a.xlsx", ods(t, "", "", "<m/>"), sheets.ErrUnreadable},
		{"a.xlsx", many(limits.Parts + 1), sheets.ErrParts},
	} {
		if _, err := sheets.Open(tt.name, tt.data, limits); !errors.Is(err, tt.err) {
			t.Errorf("%s: %v, want %v", tt.name, err, tt.err)
		}
	}
	if wb, err := sheets.Open(" Besoins.XLSX ", good, limits); err != nil || wb.Format != sheets.XLSX {
		t.Errorf("a name in capitals: %v", err)
	}
}

// TestBounds: rows past maxRows and columns past Limits.Columns are left
// out, and said so; Compute stops at its budget.
func TestBounds(t *testing.T) {
	cells := map[string]any{"A1": "x", "A2": 1, "A3": 2, "A4": 3, "IW5": "far"}
	for r := 2; r <= 40; r++ {
		cells[sheets.CellName(2, r)] = sheetstest.Formula(sheets.CellName(2, r-1) + "+1")
	}
	cells["B1"] = 0
	data, err := sheetstest.XLSX(sheetstest.Workbook{Sheets: []sheetstest.Sheet{{Name: "A", Cells: cells}}})
	if err != nil {
		t.Fatal(err)
	}
	lim := limits
	lim.Formulas = 10
	wb, err := sheets.Open("a.xlsx", data, lim)
	if err != nil {
		t.Fatal(err)
	}
	defer wb.Close()
	s, err := wb.Sheet(0, 3)
	if err != nil || len(s.Rows) != 3 || !s.More {
		t.Fatalf("rows %d, more %v: %v", len(s.Rows), s.More, err)
	}
	s, err = wb.Sheet(0, 100)
	if err != nil || len(s.Rows) != 40 || s.More {
		t.Fatalf("rows %d, more %v: %v", len(s.Rows), s.More, err)
	}
	if r := s.Rows[4]; r.Beyond.Col != 257 || r.Beyond.Value != "far" || len(r.Cells) != 1 {
		t.Errorf("beyond: %+v", r)
	}
	if v, err := wb.Compute(s, 2, 9); err != nil || v.Value != "8" {
		t.Errorf("B9 = %+v %v", v, err)
	}
	if _, err := wb.Compute(s, 2, 40); !errors.Is(err, sheets.ErrUncomputable) {
		t.Errorf("a chain past the budget: %v", err)
	}
}

// FuzzOpen feeds arbitrary bytes to each reader: a sheets error or sheets
// read, never a panic, and computing every pending cell stays an answer.
func FuzzOpen(f *testing.F) {
	files, _ := filepath.Glob(filepath.Join(realDir, "*"))
	for _, path := range files {
		if data, err := os.ReadFile(path); err == nil && len(data) < 32<<10 && !strings.HasSuffix(path, ".json") && !strings.HasSuffix(path, ".py") && !strings.HasSuffix(path, ".md") {
			f.Add(filepath.Ext(path), data)
		}
	}
	f.Fuzz(func(t *testing.T, ext string, data []byte) {
		wb, err := sheets.Open("f"+ext, data, limits)
		if err != nil {
			return
		}
		defer wb.Close()
		for i := range wb.Names {
			s, err := wb.Sheet(i, 200)
			if err != nil {
				if !errors.Is(err, sheets.ErrUnreadable) {
					t.Fatalf("sheet %d: %v", i, err)
				}
				continue
			}
			for _, r := range s.Rows {
				for _, c := range r.Cells {
					if c.Pending {
						_, _ = wb.Compute(s, c.Col, r.Num)
					}
				}
			}
		}
	})
}
