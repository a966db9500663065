package catalog_test

import (
	"bytes"
	"context"
	"encoding/csv"
	"encoding/json"
	"fmt"
	"math"
	"os"
	"strings"
	"testing"

	"primeur/core/catalog"
	"primeur/core/store"
	"primeur/core/store/storetest"
)

func TestCatalogueFigures(t *testing.T) {
	ps, err := catalog.Figures()
	if err != nil {
		t.Fatal(err)
	}
	if len(ps) < 40 {
		t.Fatalf("%d products, want at least 40", len(ps))
	}
	names := map[string]bool{}
	var share int64
	for _, p := range ps {
		if names[p.NameKey] {
			t.Errorf("duplicate name %q", p.Name)
		}
		names[p.NameKey] = true
		sum := 0.0
		for _, c := range p.Coefs {
			sum += c
		}
		if math.Abs(sum/12-1) > 0.01 {
			t.Errorf("%s: seasonal coefficients average %.3f, want 1", p.ID, sum/12)
		}
		if p.RefPrice <= 0 || p.Share <= 0 {
			t.Errorf("%s: price %v share %v", p.ID, p.RefPrice, p.Share)
		}
		share += p.Share
	}
	if share > 10000 {
		t.Errorf("shares add up to %.1f %%", float64(share)/100)
	}
}

func TestNameKey(t *testing.T) {
	tests := map[string]string{
		"Chou-fleur":            "chou fleur",
		"  CHOU   fleur ":       "chou fleur",
		"Clémentine":            "clementine",
		"ÉCHALOTE":              "echalote",
		"Radis (botte)":         "radis botte",
		"Pomme_de_terre":        "pomme de terre",
		"Mâche":                 "mache",
		"Champignon de Paris !": "champignon de paris",
	}
	for in, want := range tests {
		if got := catalog.NameKey(in); got != want {
			t.Errorf("NameKey(%q) = %q, want %q", in, got, want)
		}
	}
}

func TestSeededCatalogue(t *testing.T) {
	storetest.Each(t, func(t *testing.T, db *store.DB) {
		ctx := context.Background()
		ps, err := catalog.All(ctx, db)
		if err != nil {
			t.Fatal(err)
		}
		want, _ := catalog.Catalogue()
		if len(ps) != len(want) {
			t.Fatalf("%d products in the database, %d in the file", len(ps), len(want))
		}
		tomato, err := catalog.ByID(ctx, db, "tomate")
		if err != nil || tomato.Unit != catalog.Kg || tomato.Coefs[6] != 1.55 || tomato.RefPrice != 144 || tomato.Share != 840 {
			t.Fatalf("tomate = %+v, %v", tomato, err)
		}
		ix := catalog.NewIndex(ps)
		if p, ok := ix.ByName("CHOU FLEUR"); !ok || p.ID != "chou-fleur" || p.Unit != catalog.Piece {
			t.Fatalf("ByName = %+v %v", p, ok)
		}
		if tomato.Family != "legumes" || tomato.VATRate != 550 || tomato.Retired || tomato.DFCType != "tomato" {
			t.Errorf("tomate: family %q, VAT %d, retired %v, DFC %q", tomato.Family, tomato.VATRate, tomato.Retired, tomato.DFCType)
		}
		if p, _ := ix.ByID("fraise"); p.Family != "fruits" {
			t.Errorf("fraise: family %q", p.Family)
		}
		fs, err := catalog.Families(ctx, db)
		if err != nil || len(fs) < 10 || fs[0].ID != "fruits" || fs[1].Name != "Légumes" {
			t.Fatalf("families %+v, %v", fs, err)
		}
		var buf bytes.Buffer
		if err := catalog.CSV(&buf, ps); err != nil {
			t.Fatal(err)
		}
		rows, err := frenchCSV(&buf)
		if err != nil || len(rows) != len(ps)+1 || rows[0][0] != "produit" || rows[0][1] != "unite" {
			t.Fatalf("csv: %v %d rows", err, len(rows))
		}
	})
}

// TestCSVOfAnyText: product names holding line breaks, quotes, controls,
// emoji and invalid UTF-8 give one record each, as printable lines.
func TestCSVOfAnyText(t *testing.T) {
	ps := []catalog.Product{
		{Name: "Tomate \"cœur\", 🥕", Unit: "kg"},
		{Name: "Chou\r\nfleur\x1b[2J\x00", Unit: "un"},
		{Name: "Poire \xff\u202eesiop", Unit: "kg\n"},
	}
	var buf bytes.Buffer
	if err := catalog.CSV(&buf, ps); err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(buf.String(), "\r\n\"Tomate \"\"cœur\"\", 🥕\";kg\r\n") {
		t.Errorf("a name with quotes is not quoted: %q", buf.String())
	}
	rows, err := frenchCSV(&buf)
	if err != nil {
		t.Fatal(err)
	}
	want := [][]string{{"produit", "unite"}, {"Tomate \"cœur\", 🥕", "kg"}, {"Chou fleur[2J", "un"}, {"Poire \ufffdesiop", "kg "}}
	if fmt.Sprintf("%q", rows) != fmt.Sprintf("%q", want) {
		t.Fatalf("rows %q, want %q", rows, want)
	}
}

// frenchCSV reads the product list as French Excel does: the byte order
// mark says UTF-8, ";" separates the columns, CRLF ends the lines.
func frenchCSV(buf *bytes.Buffer) ([][]string, error) {
	data := buf.Bytes()
	if !bytes.HasPrefix(data, []byte("\uFEFF")) {
		return nil, fmt.Errorf("no byte order mark")
	}
	data = data[3:]
	if bytes.Contains(bytes.ReplaceAll(data, []byte("\r\n"), nil), []byte("\n")) {
		return nil, fmt.Errorf("a line ends without CR")
	}
	r := csv.NewReader(bytes.NewReader(data))
	r.Comma = ';'
	r.FieldsPerRecord = 2
	return r.ReadAll()
}

// TestDFCTypesExist: every product type of the catalogue maps to a concept
// of the Data Food Consortium's product types taxonomy (testdata/dfc, the
// taxonomy as published), and so does every family of migration 46
// (compared on a migrated database); the catalogue holds several hundred
// types in every family, each with a unit of need and a VAT rate of
// 5.5 %, 10 % or 20 %.
func TestDFCTypesExist(t *testing.T) {
	raw, err := os.ReadFile("../../testdata/dfc/productTypes.json")
	if err != nil {
		t.Fatal(err)
	}
	var doc []struct {
		Graph []struct {
			ID string `json:"@id"`
		} `json:"@graph"`
	}
	if err := json.Unmarshal(raw, &doc); err != nil || len(doc) == 0 {
		t.Fatalf("taxonomy: %v", err)
	}
	concepts := map[string]bool{}
	for _, c := range doc[0].Graph {
		if _, frag, ok := strings.Cut(c.ID, "productTypes.rdf#"); ok {
			concepts[frag] = true
		}
	}
	ps, err := catalog.Catalogue()
	if err != nil {
		t.Fatal(err)
	}
	if len(ps) < 300 {
		t.Errorf("%d product types, want several hundred", len(ps))
	}
	families := map[string]int{}
	for _, p := range ps {
		if !concepts[p.DFCType] {
			t.Errorf("%s: DFC type %q is no concept of the taxonomy", p.ID, p.DFCType)
		}
		if p.VATRate != 550 && p.VATRate != 1000 && p.VATRate != 2000 {
			t.Errorf("%s: VAT rate %d", p.ID, p.VATRate)
		}
		families[p.Family]++
	}
	storetest.Each(t, func(t *testing.T, db *store.DB) {
		fs, err := catalog.Families(context.Background(), db)
		if err != nil {
			t.Fatal(err)
		}
		for _, f := range fs {
			if !concepts[f.DFCType] || families[f.ID] == 0 {
				t.Errorf("family %s: DFC type %q, %d types", f.ID, f.DFCType, families[f.ID])
			}
		}
	})
}
