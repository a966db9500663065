package planning_test

import (
	"archive/zip"
	"bytes"
	"errors"
	"flag"
	"fmt"
	"os"
	"path/filepath"
	"runtime"
	"slices"
	"strings"
	"testing"

	"primeur/core"
	"primeur/core/catalog"
	"primeur/core/decimal"
	"primeur/core/planning"
	"primeur/core/planning/planningtest"
)

var update = flag.Bool("update", false, "regenerate the files of testdata/xlsx")

// FixtureDir holds the committed .xlsx files.
const fixtureDir = "../../testdata/xlsx"

// TestFixtures regenerates testdata/xlsx with -update; otherwise it checks
// that every fixture is committed and nothing else lies there.
func TestFixtures(t *testing.T) {
	var names []string
	for _, f := range planningtest.Fixtures() {
		names = append(names, f.Name)
		path := filepath.Join(fixtureDir, f.Name)
		if *update {
			data, err := f.Build()
			if err != nil {
				t.Fatalf("%s: %v", f.Name, err)
			}
			if err := os.MkdirAll(fixtureDir, 0o755); err != nil {
				t.Fatal(err)
			}
			if err := os.WriteFile(path, data, 0o644); err != nil {
				t.Fatal(err)
			}
			continue
		}
		if _, err := os.Stat(path); err != nil {
			t.Errorf("%s is not committed (go test ./core/planning -run TestFixtures -update): %v", f.Name, err)
		}
	}
	entries, err := os.ReadDir(fixtureDir)
	if err != nil {
		t.Fatal(err)
	}
	for _, e := range entries {
		if !slices.Contains(names, e.Name()) && e.Name() != "README.md" && e.Name() != "real" {
			t.Errorf("%s is in testdata/xlsx but no fixture makes it", e.Name())
		}
	}
}

func xlsxFile(t testing.TB, name string) []byte {
	t.Helper()
	data, err := os.ReadFile(filepath.Join(fixtureDir, name))
	if err != nil {
		t.Fatal(err)
	}
	return data
}

// catalogueIndex indexes the first catalogue's 60 fruit and vegetables,
// the world the import fixtures were written for (their "Kumquat" and
// "Physalis" unknown); TestImportOfEveryUnit reads the whole catalogue.
func catalogueIndex(t testing.TB) *catalog.Index {
	t.Helper()
	ps, err := catalog.Figures()
	if err != nil {
		t.Fatal(err)
	}
	return catalog.NewIndex(ps)
}

// importMessage is the French message of an import error, and whether it
// is a file error (422) rather than a size refusal (413).
func importMessage(t *testing.T, err error) (string, bool) {
	t.Helper()
	var v *core.ValidationError
	var r *core.Refusal
	switch {
	case errors.As(err, &v):
		if v.Fields[0].Field != planning.ImportField {
			t.Errorf("error on field %q", v.Fields[0].Field)
		}
		return v.Fields[0].Message, true
	case errors.As(err, &r) && errors.Is(err, core.ErrTooLarge):
		return r.Message, false
	}
	t.Fatalf("unexpected error %T %v", err, err)
	return "", false
}

// badFiles lists every bad fixture with the exact message it gets.
var badFiles = []struct{ file, msg string }{
	{"wrong-extension.txt", planning.MsgImportExtension},
	{"not-a-zip.xlsx", planning.MsgImportNotXLSX},
	{"password.xlsx", planning.MsgImportEncrypted},
	{"empty-sheet.xlsx", planning.MsgImportEmpty},
	{"no-header.xlsx", planning.MsgImportNoHeader},
	{"no-months.xlsx", fmt.Sprintf(planning.MsgImportNoMonths, 1)},
	{"bad-month.xlsx", "En-tête de mois sans année en C1 (« décembre ») : indiquez aussi l'année, par exemple « décembre 2027 »."},
	{"month-13.xlsx", "En-tête de mois illisible en B1 (« 13/2027 ») : indiquez un mois et son année, par exemple « janv. 2027 », 01/2027 ou une date."},
	{"duplicate-month.xlsx", "Le mois de C1 (01/2027) figure déjà en B1 : gardez une seule colonne par mois."},
	{"text-quantity.xlsx", "Quantité illisible en B4 (« douze ») : saisissez un nombre, par exemple 12,5, ou laissez la case vide."},
	{"negative-quantity.xlsx", "Quantité négative en C3 (« -5 ») : saisissez un nombre positif, ou laissez la case vide."},
	{"half-melon.xlsx", "Quantité incorrecte en C2 (« 2.5 ») : le catalogue compte « Melon » en pièces ; saisissez un nombre entier."},
	{"duplicate-product.xlsx", "Le produit « TOMATE » figure deux fois (lignes 2 et 4) : gardez une seule ligne par produit."},
	{"no-name.xlsx", "Nom de produit manquant en A3 : indiquez le produit de cette ligne, ou videz la ligne."},
	{"outside-columns.xlsx", "Valeur en D2 (« 3 ») dans une colonne sans mois : indiquez le mois en tête de colonne, ou videz la colonne."},
	{"too-many-months.xlsx", planning.MsgImportManyMonths},
	{"too-many-rows.xlsx", planning.MsgImportManyRows},
	{"too-many-entries.xlsx", planning.MsgImportEntries},
	{"zip-bomb.xlsx", planning.MsgImportInflated},
	{"zip-bomb-lying.xlsx", planning.MsgImportNotXLSX},
}

func TestParseBadFiles(t *testing.T) {
	ix := catalogueIndex(t)
	for _, tt := range badFiles {
		t.Run(tt.file, func(t *testing.T) {
			imp, err := planning.ParseFile(tt.file, xlsxFile(t, tt.file), ix, planning.ParseOptions{})
			if imp != nil || err == nil {
				t.Fatalf("parsed: %+v", imp)
			}
			if msg, _ := importMessage(t, err); msg != tt.msg {
				t.Fatalf("message %q, want %q", msg, tt.msg)
			}
		})
	}
}

// TestZipBombsStayBounded checks that refusing a bomb does not inflate it:
// the memory allocated while parsing stays far below the 200 MiB inside.
func TestZipBombsStayBounded(t *testing.T) {
	ix := catalogueIndex(t)
	for _, name := range []string{"zip-bomb.xlsx", "zip-bomb-lying.xlsx"} {
		data := xlsxFile(t, name)
		if len(data) > 1<<20 {
			t.Fatalf("%s is %d bytes: not a small file", name, len(data))
		}
		var before, after runtime.MemStats
		runtime.ReadMemStats(&before)
		if _, err := planning.ParseFile(name, data, ix, planning.ParseOptions{}); err == nil {
			t.Fatalf("%s parsed", name)
		}
		runtime.ReadMemStats(&after)
		if grown := after.TotalAlloc - before.TotalAlloc; grown > 32<<20 {
			t.Errorf("%s: parsing allocated %d MiB", name, grown>>20)
		}
	}
}

func TestParseGoodFile(t *testing.T) {
	imp, err := planning.ParseFile("Besoins 2027.XLSX", xlsxFile(t, "good.xlsx"), catalogueIndex(t), planning.ParseOptions{})
	if err != nil {
		t.Fatal(err)
	}
	if len(imp.Months) != 12 || imp.Months[0] != "2027-01-01" || imp.Months[11] != "2027-12-01" {
		t.Fatalf("months %v", imp.Months)
	}
	if got := imp.Found(); !slices.Equal(got, []string{"Tomate", "Melon", "Pomme de terre", "Carotte"}) {
		t.Errorf("found %v", got)
	}
	if got, n := imp.Missing(); n != 4 || !slices.Equal(got, []string{"Kumquat", "Yuzu", "Physalis", "Fruit du dragon"}) {
		t.Errorf("missing %v", got)
	}
	tomato := imp.Rows[0]
	if tomato.Line != 2 || len(tomato.Cells) != 11 || tomato.Cells[0] != (planning.ImportCell{Month: 0, Quantity: 12050, Ref: "B2"}) ||
		tomato.Cells[2] != (planning.ImportCell{Month: 3, Quantity: 15025, Ref: "E2"}) {
		t.Errorf("tomato %+v", tomato)
	}
	if melon := imp.Rows[1]; len(melon.Cells) != 6 || melon.Cells[1].Quantity != decimal.FromInt(40) {
		t.Errorf("melon %+v", melon)
	}
	if carrot := imp.Rows[4]; carrot.Line != 7 || carrot.Product.ID != "carotte" || len(carrot.Cells) != 3 {
		t.Errorf("carrot after the blank row %+v", carrot)
	}
}

// TestParseRoundsKilograms: a kilogram quantity of more than two decimals
// (a formula's result, typically) is rounded to the hundredth, half away
// from zero on the value as the sheet shows it, and listed.
func TestParseRoundsKilograms(t *testing.T) {
	imp, err := planning.ParseFile("r.xlsx", xlsxFile(t, "three-decimals.xlsx"), catalogueIndex(t), planning.ParseOptions{})
	if err != nil {
		t.Fatal(err)
	}
	want := []planning.ImportRounding{{Cell: "B2", Product: "Tomate", Read: "1.125", Quantity: 113}}
	if !slices.Equal(imp.Rounded, want) || imp.Rows[0].Cells[0].Quantity != 113 {
		t.Fatalf("rounded %+v, cells %+v", imp.Rounded, imp.Rows[0].Cells)
	}
}

func TestParseNamesAndMonthForms(t *testing.T) {
	ix := catalogueIndex(t)
	imp, err := planning.ParseFile("a.xlsx", xlsxFile(t, "accents-case.xlsx"), ix, planning.ParseOptions{})
	if err != nil {
		t.Fatal(err)
	}
	if got := imp.Found(); !slices.Equal(got, []string{"Chou-fleur", "Clémentine", "Pomme de terre", "Céleri-rave", "Épinard"}) {
		missing, _ := imp.Missing()
		t.Errorf("found %v, missing %v", got, missing)
	}
	imp, err = planning.ParseFile("m.xlsx", xlsxFile(t, "month-forms.xlsx"), ix, planning.ParseOptions{})
	if err != nil {
		t.Fatal(err)
	}
	if !slices.Equal(imp.Months, []string{"2027-01-01", "2027-02-01", "2027-03-01", "2027-04-01", "2027-05-01"}) {
		t.Errorf("months %v", imp.Months)
	}
	var got []decimal.Dec
	for _, c := range imp.Rows[1].Cells {
		got = append(got, c.Quantity)
	}
	if !slices.Equal(got, []decimal.Dec{1250, 725, 800, 1500, 0}) {
		t.Errorf("leek quantities %v", got)
	}
}

// TestParseLimits checks each limit on both sides of its bound.
func TestParseLimits(t *testing.T) {
	ix := catalogueIndex(t)
	build := func(rows [][]any) []byte {
		data, err := planningtest.Workbook(rows)
		if err != nil {
			t.Fatal(err)
		}
		return data
	}
	months := func(n int) [][]any {
		cells, _ := planningtest.Months("2027-01", n)
		return [][]any{planningtest.Header(cells), {"Tomate", 1}}
	}
	if _, err := planning.ParseFile("a.xlsx", build(months(36)), ix, planning.ParseOptions{}); err != nil {
		t.Errorf("36 months: %v", err)
	}
	if _, err := planning.ParseFile("a.xlsx", build(months(37)), ix, planning.ParseOptions{}); err == nil {
		t.Error("37 months accepted")
	}
	imp, err := planning.ParseFile("large.xlsx", xlsxFile(t, "large-10000.xlsx"), ix, planning.ParseOptions{})
	if _, missing := imp.Missing(); err != nil || len(imp.Rows) != planning.MaxImportRows || missing != planning.MaxImportRows {
		t.Fatalf("10 000 rows: %v", err)
	}

	// Size: the file itself, before anything is read.
	big := append(build(months(1)), make([]byte, planning.MaxImportBytes)...)
	if msg, file := importMessage(t, errOf(planning.ParseFile("big.xlsx", big, ix, planning.ParseOptions{}))); msg != planning.MsgImportTooBig || file {
		t.Errorf("oversized file: %q", msg)
	}
	if planning.CheckImportFile("a.xlsx", planning.MaxImportBytes) != nil {
		t.Error("a file of exactly the limit is refused")
	}

	// Zip entries: the directory is counted before excelize opens anything.
	withEntries := func(n int) []byte {
		good := build(months(1))
		zr, _ := zip.NewReader(bytes.NewReader(good), int64(len(good)))
		data, err := planningtest.Rezip(good, func(w *zip.Writer, h *zip.FileHeader, content []byte) error {
			ew, err := w.Create(h.Name)
			if err == nil {
				_, err = ew.Write(content)
			}
			return err
		}, func(w *zip.Writer) error {
			for i := len(zr.File); i < n; i++ {
				if _, err := w.Create(fmt.Sprintf("customXml/item%d.xml", i)); err != nil {
					return err
				}
			}
			return nil
		})
		if err != nil {
			t.Fatal(err)
		}
		return data
	}
	if _, err := planning.ParseFile("a.xlsx", withEntries(planning.MaxZipEntries), ix, planning.ParseOptions{}); err != nil {
		t.Errorf("%d entries: %v", planning.MaxZipEntries, err)
	}
	if msg, _ := importMessage(t, errOf(planning.ParseFile("a.xlsx", withEntries(planning.MaxZipEntries+1), ix, planning.ParseOptions{}))); msg != planning.MsgImportEntries {
		t.Errorf("%d entries: %q", planning.MaxZipEntries+1, msg)
	}
}

func errOf(_ *planning.Import, err error) error { return err }

// FuzzParseXLSX feeds arbitrary bytes (seeded with the small fixtures) to the
// parser: it must answer a French file error or a parsed import, never panic.
func FuzzParseXLSX(f *testing.F) {
	for _, fx := range planningtest.Fixtures() {
		if fx.Name == "large-10000.xlsx" || fx.Name == "too-many-rows.xlsx" {
			continue
		}
		data, err := os.ReadFile(filepath.Join(fixtureDir, fx.Name))
		if err == nil && len(data) < 64<<10 {
			f.Add(data)
		}
	}
	real, _ := filepath.Glob(filepath.Join(realDir, "*.xlsx"))
	for _, path := range real {
		if data, err := os.ReadFile(path); err == nil && len(data) < 64<<10 {
			f.Add(data)
		}
	}
	ps, err := catalog.Catalogue()
	if err != nil {
		f.Fatal(err)
	}
	ix := catalog.NewIndex(ps)
	f.Fuzz(func(t *testing.T, data []byte) {
		imp, err := planning.ParseFile("f.xlsx", data, ix, planning.ParseOptions{})
		if err == nil {
			if len(imp.Months) == 0 || len(imp.Rows) == 0 {
				t.Fatal("an import without months or rows")
			}
			return
		}
		var v *core.ValidationError
		var r *core.Refusal
		if !errors.As(err, &v) && !errors.As(err, &r) {
			t.Fatalf("not a user error: %v", err)
		}
	})
}

// TestParseLargestSheet reads the largest sheet the limits allow, 10 000
// products × 36 months: its XML streams from the zip (several megabytes,
// within UnzipSizeLimit), nothing is written to disk, and it reads whole.
func TestParseLargestSheet(t *testing.T) {
	if testing.Short() {
		t.Skip("large file")
	}
	data, err := planningtest.Workbook(planningtest.Large(planning.MaxImportRows, "2027-01", planning.MaxImportMonths))
	if err != nil {
		t.Fatal(err)
	}
	zr, err := zip.NewReader(bytes.NewReader(data), int64(len(data)))
	if err != nil {
		t.Fatal(err)
	}
	for _, e := range zr.File {
		if e.Name == "xl/worksheets/sheet1.xml" && (e.UncompressedSize64 <= 5<<20 || e.UncompressedSize64 > planning.UnzipSizeLimit) {
			t.Fatalf("the sheet is %d bytes: not between 5 MB and the unzip limit", e.UncompressedSize64)
		}
	}
	ix := catalogueIndex(t)
	tmp := t.TempDir()
	t.Setenv("TMPDIR", tmp)
	imp, err := planning.ParseFile("largest.xlsx", data, ix, planning.ParseOptions{})
	if err != nil || len(imp.Rows) != planning.MaxImportRows || len(imp.Months) != planning.MaxImportMonths {
		t.Fatalf("largest sheet: %v", err)
	}
	if left, _ := os.ReadDir(tmp); len(left) != 0 {
		t.Fatalf("temporary files left behind: %v", left)
	}
	if last := imp.Rows[len(imp.Rows)-1]; last.Name != planningtest.Synthetic(planning.MaxImportRows) || last.Line != planning.MaxImportRows+1 {
		t.Fatalf("last row %+v", last.Name)
	}
}

// TestParseShopLayouts: the table a shop makes — title rows above the
// header, a unit column, an empty column, a total column and a total row,
// names in the plural, French numbers, "-" and "NC" — reads as meant.
func TestParseShopLayouts(t *testing.T) {
	data, err := planningtest.Workbook([][]any{
		{"Besoins 2027 — Épicerie du Lac"},
		{},
		{"Désignation", "Unité", "janv. 2027", nil, "févr. 2027", "03/2027", "Total", "Remarques"},
		{"Tomates", "kg", "1 200", nil, "12,5", "-", 1212.5, "bio"},
		{"Poireaux", "kg", 30, nil, "NC", "néant", 30, ""},
		{"melons", "pièce", 4, nil, 6, nil, 10},
		{"Courgete", "kg", 5},
		{"Total", nil, 1234, nil, 18.5, 0, 1252.5},
	})
	if err != nil {
		t.Fatal(err)
	}
	imp, err := planning.ParseFile("a.xlsx", data, catalogueIndex(t), planning.ParseOptions{})
	if err != nil {
		t.Fatal(err)
	}
	if !slices.Equal(imp.Months, []string{"2027-01-01", "2027-02-01", "2027-03-01"}) {
		t.Fatalf("months %v", imp.Months)
	}
	if got := imp.Found(); !slices.Equal(got, []string{"Tomate", "Poireau", "Melon"}) {
		t.Errorf("found %v", got)
	}
	if got := imp.Suggestions(); !slices.Equal(got, []planning.ImportSuggestion{{Name: "Courgete", Product: "Courgette"}}) {
		t.Errorf("suggestions %v", got)
	}
	want := map[string][]planning.ImportCell{
		"Tomates":  {{Month: 0, Quantity: 120000, Ref: "C4"}, {Month: 1, Quantity: 1250, Ref: "E4"}, {Month: 2, Quantity: 0, Ref: "F4"}},
		"Poireaux": {{Month: 0, Quantity: 3000, Ref: "C5"}, {Month: 1, Quantity: 0, Ref: "E5"}, {Month: 2, Quantity: 0, Ref: "F5"}},
		"melons":   {{Month: 0, Quantity: 400, Ref: "C6"}, {Month: 1, Quantity: 600, Ref: "E6"}},
	}
	for _, r := range imp.Rows {
		if w, ok := want[r.Name]; ok && !slices.Equal(r.Cells, w) {
			t.Errorf("%s: %+v, want %+v", r.Name, r.Cells, w)
		}
	}
	if len(imp.Rows) != 4 {
		t.Errorf("%d rows (the total row is not a product)", len(imp.Rows))
	}
}

// TestParseNamesEveryProblem: a file with several problems is refused with
// each of them named, on the import field.
func TestParseNamesEveryProblem(t *testing.T) {
	data, err := planningtest.Workbook([][]any{
		{"Produit", "janv. 2027", "févr. 2027", "mars"},
		{"Tomate", "douze", 3, 1},
		{"Melon", 2.5, "-4", 1},
		{"Laitue", "kg", 3, 1},
		{nil, 4},
	})
	if err != nil {
		t.Fatal(err)
	}
	_, err = planning.ParseFile("a.xlsx", data, catalogueIndex(t), planning.ParseOptions{})
	var v *core.ValidationError
	if !errors.As(err, &v) {
		t.Fatalf("err %v", err)
	}
	var refs []string
	for _, f := range v.Fields {
		if f.Field != planning.ImportField {
			t.Errorf("field %q", f.Field)
		}
		refs = append(refs, f.Message)
	}
	for _, ref := range []string{"D1", "B2", "B3", "C3", "B4", "A5"} {
		found := false
		for _, m := range refs {
			found = found || strings.Contains(m, " "+ref+" ")
		}
		if !found {
			t.Errorf("%s not named in %q", ref, refs)
		}
	}
	if len(v.Fields) != 6 {
		t.Errorf("%d problems: %q", len(v.Fields), refs)
	}
}
