package planning_test

import (
	"archive/zip"
	"bytes"
	"fmt"
	"slices"
	"strings"
	"testing"

	"primeur/core/catalog"
	"primeur/core/planning"
	"primeur/core/planning/planningtest"
)

// odsOf is a minimal OpenDocument spreadsheet of one sheet "Besoins"
// holding rows of text cells (numbers as LibreOffice stores them when
// typed as text: the import reads both).
func odsOf(t *testing.T, rows [][]string) []byte {
	t.Helper()
	var body strings.Builder
	body.WriteString(`<table:table table:name="Besoins">`)
	for _, r := range rows {
		body.WriteString(`<table:table-row>`)
		for _, c := range r {
			if c == "" {
				body.WriteString(`<table:table-cell/>`)
				continue
			}
			fmt.Fprintf(&body, `<table:table-cell office:value-type="string"><text:p>%s</text:p></table:table-cell>`, c)
		}
		body.WriteString(`</table:table-row>`)
	}
	body.WriteString(`</table:table>`)
	var buf bytes.Buffer
	z := zip.NewWriter(&buf)
	for _, part := range []struct{ name, content string }{
		{"mimetype", "application/vnd.oasis.opendocument.spreadsheet"},
		{"content.xml", `<?xml version="1.0" encoding="UTF-8"?><office:document-content ` +
			`xmlns:office="urn:oasis:names:tc:opendocument:xmlns:office:1.0" xmlns:table="urn:oasis:names:tc:opendocument:xmlns:table:1.0" ` +
			`xmlns:text="urn:oasis:names:tc:opendocument:xmlns:text:1.0"><office:body><office:spreadsheet>` + body.String() +
			`</office:spreadsheet></office:body></office:document-content>`},
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

// TestEveryFormatReadsEveryType: the file import reads the catalogue's
// types beyond the 60 historic ones, in their units, from a .csv, an .ods
// and an .xlsx alike — Tomme de Savoie in kg, eggs by the dozen ("Oeufs"
// finding "Œufs"), raw milk in litres, honey by the jar, chives by the
// bunch, the unit in its column or after the quantity —; a unit the
// catalogue does not know is refused naming every unit of need, and one
// of another unit than the type's names the type's. The whole catalogue's
// index, as an import reads it.
func TestEveryFormatReadsEveryType(t *testing.T) {
	all, err := catalog.Catalogue()
	if err != nil {
		t.Fatal(err)
	}
	ix := catalog.NewIndex(all)
	rows := [][]string{
		{"Produit", "Unité", "janv. 2027", "févr. 2027"},
		{"Tomme de Savoie", "kg", "12,5", "8"},
		{"Oeufs de poule plein air", "douzaines", "30", ""},
		{"Lait cru entier", "L", "120,5", ""},
		{"Miel toutes fleurs", "", "24 pots", ""},
		{"Ciboulette", "bottes", "15", ""},
	}
	want := map[string][]planning.ImportCell{
		"Tomme de Savoie":          {{Month: 0, Quantity: 12_50, Ref: "C2"}, {Month: 1, Quantity: 8_00, Ref: "D2"}},
		"Oeufs de poule plein air": {{Month: 0, Quantity: 30_00, Ref: "C3"}},
		"Lait cru entier":          {{Month: 0, Quantity: 120_50, Ref: "C4"}},
		"Miel toutes fleurs":       {{Month: 0, Quantity: 24_00, Ref: "C5"}},
		"Ciboulette":               {{Month: 0, Quantity: 15_00, Ref: "C6"}},
	}
	var csv strings.Builder
	cells := make([][]any, len(rows))
	for i, r := range rows {
		csv.WriteString(strings.Join(r, ";") + "\r\n")
		for _, c := range r {
			if c == "" {
				cells[i] = append(cells[i], nil)
			} else {
				cells[i] = append(cells[i], c)
			}
		}
	}
	xlsx, err := planningtest.Workbook(cells)
	if err != nil {
		t.Fatal(err)
	}
	for _, f := range []struct {
		name string
		data []byte
	}{
		{"besoins.csv", []byte(csv.String())},
		{"besoins.ods", odsOf(t, rows)},
		{"besoins.xlsx", xlsx},
	} {
		t.Run(f.name, func(t *testing.T) {
			imp, err := planning.ParseFile(f.name, f.data, ix, planning.ParseOptions{})
			if err != nil {
				t.Fatal(err)
			}
			if got := imp.Found(); !slices.Equal(got, []string{"Tomme de Savoie", "Œufs de poule plein air", "Lait cru entier",
				"Miel toutes fleurs", "Ciboulette"}) {
				t.Errorf("found %v", got)
			}
			for _, r := range imp.Rows {
				if !slices.Equal(r.Cells, want[r.Name]) {
					t.Errorf("%s: %+v, want %+v", r.Name, r.Cells, want[r.Name])
				}
			}
		})
	}

	for _, c := range []struct {
		name string
		row  []string
		msg  string
	}{
		{"a unit no type has", []string{"Tomme de Savoie", "grammes", "500", ""},
			"Unité inconnue en B2 (« grammes ») : indiquez kg, litres, pièces, douzaines, bottes, barquettes, bouteilles ou pots."},
		{"another unit than the type's", []string{"Oeufs de poule plein air", "kg", "3", ""},
			"Unité en B2 (« kg ») : le catalogue compte « Œufs de poule plein air » en douzaines ; indiquez la quantité en douzaines."},
	} {
		t.Run(c.name, func(t *testing.T) {
			data := []byte(strings.Join(rows[0], ";") + "\r\n" + strings.Join(c.row, ";") + "\r\n")
			_, err := planning.ParseFile("besoins.csv", data, ix, planning.ParseOptions{})
			if err == nil || !strings.Contains(err.Error(), c.msg) {
				t.Fatalf("got %v, want %q", err, c.msg)
			}
		})
	}
}
