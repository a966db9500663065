package planning_test

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"primeur/core"
	"primeur/core/accounts"
	"primeur/core/decimal"
	"primeur/core/planning"
	"primeur/core/sheets"
	"primeur/core/sheets/sheetstest"
	"primeur/core/store"
	"primeur/core/store/storetest"
)

// realDir holds the files made the way shops make them (LibreOffice,
// Gnumeric, openpyxl: testdata/xlsx/real/make.py; ExcelJS-like writers:
// TestScriptFiles), each with the outcome it must have in NAME.want.json.
const realDir = "../../testdata/xlsx/real"

type want struct {
	Case        string                       `json:"case"`
	Needs       map[string]map[string]string `json:"needs"`
	Missing     []string                     `json:"missing"`
	Suggestions map[string]string            `json:"suggestions"`
	Rounded     []string                     `json:"rounded"`
	Problems    []string                     `json:"problems"`
	// Sheet is the sheet read, Sheets those holding a needs table.
	Sheet  string   `json:"sheet"`
	Sheets []string `json:"sheets"`
	// SheetRefusal is the refusal of the file sent without a sheet named;
	// Choose the sheet then named.
	SheetRefusal string `json:"sheetRefusal"`
	Choose       string `json:"choose"`
}

// realFiles lists the corpus: every .xlsx, .ods and .csv, with the want
// file each shares with its twins in other formats.
func realFiles(t *testing.T) map[string]string {
	t.Helper()
	files := map[string]string{}
	for _, ext := range []string{"*.xlsx", "*.ods", "*.csv"} {
		found, err := filepath.Glob(filepath.Join(realDir, ext))
		if err != nil {
			t.Fatal(err)
		}
		for _, f := range found {
			files[f] = strings.TrimSuffix(f, filepath.Ext(f)) + ".want.json"
		}
	}
	wants, _ := filepath.Glob(filepath.Join(realDir, "*.want.json"))
	used := map[string]bool{}
	for f, w := range files {
		if _, err := os.Stat(w); err != nil {
			t.Errorf("%s has no want file", f)
		}
		used[w] = true
	}
	for _, w := range wants {
		if !used[w] {
			t.Errorf("%s has no file", w)
		}
	}
	if len(files) < 20 {
		t.Fatalf("%d files", len(files))
	}
	return files
}

// TestRealFiles imports every file of the corpus for a new shop, on both
// engines, and compares the stored needs cell by cell with what the file
// must give; a file with problems must name each of them and write nothing.
//
// One database per engine holds every file's shop: migrating one per file
// and engine made this the slowest test of the repository.
func TestRealFiles(t *testing.T) {
	files := realFiles(t)
	storetest.Each(t, func(t *testing.T, db *store.DB) {
		n := 0
		for path, wantPath := range files {
			name := filepath.Base(path)
			n++
			t.Run(name, func(t *testing.T) {
				var w want
				raw, err := os.ReadFile(wantPath)
				if err == nil {
					err = json.Unmarshal(raw, &w)
				}
				if err != nil {
					t.Fatalf("want file: %v", err)
				}
				data, err := os.ReadFile(path)
				if err != nil {
					t.Fatal(err)
				}
				shop, err := accounts.Register(context.Background(), db, accounts.Registration{Email: fmt.Sprintf("shop%d@x.fr", n),
					Password: "motdepasse1", Name: name, Distributor: true}, now)
				if err != nil {
					t.Fatal(err)
				}
				opts := planning.ImportOptions{}
				if w.SheetRefusal != "" {
					_, err := planning.ImportXLSX(context.Background(), db, shop.ID, name, data, now, opts)
					var v *core.ValidationError
					if !errors.As(err, &v) || len(v.Fields) != 1 || v.Fields[0].Field != planning.ImportSheetField || v.Fields[0].Message != w.SheetRefusal {
						t.Fatalf("%s: without a sheet named, %v, want %q", w.Case, err, w.SheetRefusal)
					}
					if stored := storedNeeds(t, db, shop.ID); len(stored) != 0 {
						t.Fatalf("a refused file wrote %v", stored)
					}
					opts.Sheet = w.Choose
				}
				res, err := planning.ImportXLSX(context.Background(), db, shop.ID, name, data, now, opts)
				stored := storedNeeds(t, db, shop.ID)
				if len(w.Problems) > 0 {
					var v *core.ValidationError
					if !errors.As(err, &v) {
						t.Fatalf("%s: accepted (%v), want problems %v", w.Case, err, w.Problems)
					}
					all := v.Error()
					for _, ref := range w.Problems {
						if !strings.Contains(all, " "+ref+" ") {
							t.Errorf("%s not named: %q", ref, all)
						}
					}
					if len(v.Fields) != len(w.Problems) {
						t.Errorf("%d problems named, want %d: %q", len(v.Fields), len(w.Problems), all)
					}
					if len(stored) != 0 {
						t.Errorf("a refused file wrote %v", stored)
					}
					return
				}
				if err != nil {
					t.Fatalf("%s: %v", w.Case, err)
				}
				expected := map[string]decimal.Dec{}
				for product, months := range w.Needs {
					for month, q := range months {
						var d decimal.Dec
						if err := json.Unmarshal([]byte(q), &d); err != nil {
							t.Fatalf("want %s %s: %v", product, month, err)
						}
						expected[product+" "+month] = d
					}
				}
				for k, q := range expected {
					if got, ok := stored[k]; !ok || got != q {
						t.Errorf("%s: stored %v (%v), want %v", k, got, ok, q)
					}
				}
				for k, q := range stored {
					if _, ok := expected[k]; !ok {
						t.Errorf("%s: stored %v, want no need", k, q)
					}
				}
				if !sameSet(res.ProductsMissing, w.Missing) {
					t.Errorf("missing %v, want %v", res.ProductsMissing, w.Missing)
				}
				suggested := map[string]string{}
				for _, s := range res.Suggestions {
					suggested[s.Name] = s.Product
				}
				if len(suggested) != len(w.Suggestions) {
					t.Errorf("suggestions %v, want %v", suggested, w.Suggestions)
				}
				for n, p := range w.Suggestions {
					if suggested[n] != p {
						t.Errorf("suggestion for %s: %q, want %q", n, suggested[n], p)
					}
				}
				var rounded []string
				for _, r := range res.Rounded {
					rounded = append(rounded, r.Cell)
				}
				if !sameSet(rounded, w.Rounded) {
					t.Errorf("rounded %v, want %v", rounded, w.Rounded)
				}
				if len(res.Changes) != len(expected) {
					t.Errorf("%d changes for %d new needs: %+v", len(res.Changes), len(expected), res.Changes)
				}
				if w.Sheet != "" && res.Sheet != w.Sheet {
					t.Errorf("sheet %q read, want %q", res.Sheet, w.Sheet)
				}
				if w.Sheets != nil && !slices.Equal(res.Sheets, w.Sheets) {
					t.Errorf("sheets %q, want %q", res.Sheets, w.Sheets)
				}
			})
		}
	})
}

// storedNeeds reads a shop's needs as "product YYYY-MM" → quantity, those
// of zero left out.
func storedNeeds(t *testing.T, db *store.DB, shopID string) map[string]decimal.Dec {
	t.Helper()
	list, err := planning.List(context.Background(), db, planning.Filter{DistributorID: shopID})
	if err != nil {
		t.Fatal(err)
	}
	out := map[string]decimal.Dec{}
	for _, n := range list {
		if n.Quantity != 0 {
			out[n.Product+" "+n.Date[:7]] = n.Quantity
		}
	}
	return out
}

func sameSet(a, b []string) bool {
	a, b = slices.Clone(a), slices.Clone(b)
	slices.Sort(a)
	slices.Sort(b)
	return slices.Equal(a, b)
}

// scriptFiles are the corpus's files written as script writers (ExcelJS,
// EPPlus) write them: formulas without stored results, shared across
// cells, tables with a totals row.
func scriptFiles() map[string]sheetstest.Workbook {
	// Last year's sales the shared formula grows by 10 % (no value ends
	// in 5: its 110 % would round half way).
	history := [][]int{{101, 107, 113, 119, 122, 131}, {114, 121, 126, 132, 138, 144}, {127, 133, 139, 143, 151, 157}}
	hist := map[string]any{"A1": "Ventes"}
	needs := map[string]any{"A1": "Produit", "B2": sheetstest.Shared{Formula: "ROUND(Historique!B2*1.1,0)", Ref: "B2:G4"}}
	months := []string{"janv.", "févr.", "mars", "avr.", "mai", "juin"}
	for c, m := range months {
		hist[sheets.CellName(c+2, 1)] = m + " 2026"
		needs[sheets.CellName(c+2, 1)] = m + " 2027"
	}
	for r, name := range []string{"Tomate", "Carotte", "Poireau"} {
		hist[sheets.CellName(1, r+2)] = name
		needs[sheets.CellName(1, r+2)] = name
		for c, v := range history[r] {
			hist[sheets.CellName(c+2, r+2)] = v
		}
	}
	totals := map[string]any{"A1": "Produit", "B1": "janv. 2027", "C1": "févr. 2027", "D1": "mars 2027", "A5": "Total"}
	for r, row := range [][]any{{"Tomate", 12, 14, 16}, {"Carotte", 5, 6, 7}, {"Poireau", 3, 3, 4}} {
		for c, v := range row {
			totals[sheets.CellName(c+1, r+2)] = v
		}
	}
	for c, m := range []string{"janv. 2027", "févr. 2027", "mars 2027"} {
		totals[sheets.CellName(c+2, 5)] = sheetstest.Formula("SUBTOTAL(109,Besoins[" + m + "])")
	}
	return map[string]sheetstest.Workbook{
		"exceljs-shared-formula.xlsx": {Active: 1, Sheets: []sheetstest.Sheet{
			{Name: "Historique", Cells: hist}, {Name: "Besoins", Cells: needs},
		}},
		"exceljs-totals-row.xlsx": {Sheets: []sheetstest.Sheet{
			{Name: "Besoins", Cells: totals, Table: &sheetstest.Table{Name: "Besoins", Ref: "A1:D5", TotalsRow: true}},
		}},
	}
}

// TestScriptFiles writes the corpus's script-made files with -update, and
// otherwise checks that the committed ones are what scriptFiles makes.
func TestScriptFiles(t *testing.T) {
	for name, book := range scriptFiles() {
		data, err := sheetstest.XLSX(book)
		if err != nil {
			t.Fatal(err)
		}
		path := filepath.Join(realDir, name)
		if *update {
			if err := os.WriteFile(path, data, 0o644); err != nil {
				t.Fatal(err)
			}
			continue
		}
		committed, err := os.ReadFile(path)
		if err != nil {
			t.Fatalf("%s is not committed (go test ./core/planning -run TestScriptFiles -update): %v", name, err)
		}
		if !bytes.Equal(committed, data) {
			t.Errorf("%s is not what scriptFiles makes (go test ./core/planning -run TestScriptFiles -update)", name)
		}
	}
}
