package planning_test

import (
	"context"
	"encoding/json"
	"errors"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"primeur/core"
	"primeur/core/decimal"
	"primeur/core/planning"
	"primeur/core/store"
	"primeur/core/store/storetest"
)

// realDir holds the files made the way shops make them (LibreOffice,
// Gnumeric, openpyxl: testdata/xlsx/real/make.py), each with the outcome it
// must have in NAME.want.json.
const realDir = "../../testdata/xlsx/real"

type want struct {
	Case        string                       `json:"case"`
	Needs       map[string]map[string]string `json:"needs"`
	Missing     []string                     `json:"missing"`
	Suggestions map[string]string            `json:"suggestions"`
	Rounded     []string                     `json:"rounded"`
	Problems    []string                     `json:"problems"`
}

// TestRealFiles imports every file of the corpus for a new shop, on both
// engines, and compares the stored needs cell by cell with what the file
// must give; a file with problems must name each of them and write nothing.
func TestRealFiles(t *testing.T) {
	files, err := filepath.Glob(filepath.Join(realDir, "*.xlsx"))
	if err != nil || len(files) < 10 {
		t.Fatalf("%d files, %v", len(files), err)
	}
	wants, _ := filepath.Glob(filepath.Join(realDir, "*.want.json"))
	if len(wants) != len(files) {
		t.Fatalf("%d files but %d want files", len(files), len(wants))
	}
	for _, path := range files {
		name := filepath.Base(path)
		t.Run(name, func(t *testing.T) {
			storetest.Each(t, func(t *testing.T, db *store.DB) {
				var w want
				raw, err := os.ReadFile(strings.TrimSuffix(path, ".xlsx") + ".want.json")
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
				shop := setup(t, db).shop
				res, err := planning.ImportXLSX(context.Background(), db, shop.ID, name, data, now, planning.ImportOptions{})
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
			})
		})
	}
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
