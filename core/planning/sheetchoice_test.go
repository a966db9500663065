package planning_test

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"slices"
	"strings"
	"testing"

	"primeur/core"
	"primeur/core/calendar"
	"primeur/core/catalog"
	"primeur/core/decimal"
	"primeur/core/planning"
	"primeur/core/sheets/sheetstest"
	"primeur/core/store"
	"primeur/core/store/storetest"
)

func book(t *testing.T, wb sheetstest.Workbook) []byte {
	t.Helper()
	data, err := sheetstest.XLSX(wb)
	if err != nil {
		t.Fatal(err)
	}
	return data
}

// refusal is the one message of a refused parse, and its field.
func refusal(t *testing.T, err error) (string, string) {
	t.Helper()
	var v *core.ValidationError
	if !errors.As(err, &v) || len(v.Fields) == 0 {
		t.Fatalf("not refused: %v", err)
	}
	return v.Fields[0].Field, v.Fields[0].Message
}

// TestFormatsByName: the formats read, and how to save the others.
func TestFormatsByName(t *testing.T) {
	for _, tt := range []struct{ name, msg string }{
		{"besoins.xlsx", ""}, {"Besoins.ODS", ""}, {"besoins.csv", ""},
		{"besoins.xls", planning.MsgImportLegacy}, {"besoins.xlsm", planning.MsgImportMacro},
		{"besoins.xlsb", planning.MsgImportMacro}, {"besoins.numbers", planning.MsgImportExtension},
		{"besoins.pdf", planning.MsgImportExtension}, {"besoins", planning.MsgImportExtension},
	} {
		err := planning.CheckImportFile(tt.name, 10)
		if tt.msg == "" {
			if err != nil {
				t.Errorf("%s refused: %v", tt.name, err)
			}
			continue
		}
		if field, msg := refusal(t, err); field != planning.ImportField || msg != tt.msg {
			t.Errorf("%s: %q", tt.name, msg)
		}
	}
	for _, msg := range []string{planning.MsgImportLegacy, planning.MsgImportMacro} {
		for _, menu := range []string{"Fichier > Enregistrer sous", "Classeur Excel (*.xlsx)", "Excel 2007-365 (.xlsx)", "Classeur ODF (.ods)"} {
			if !strings.Contains(msg, menu) {
				t.Errorf("%q does not say %q", msg, menu)
			}
		}
	}
}

// TestProductsCSVAsAStart: the catalogue's own products.csv, with month
// columns added and a few quantities typed, imports as it reads.
func TestProductsCSVAsAStart(t *testing.T) {
	ps, err := catalog.Catalogue()
	if err != nil {
		t.Fatal(err)
	}
	var buf bytes.Buffer
	if err := catalog.CSV(&buf, ps); err != nil {
		t.Fatal(err)
	}
	typed := map[string]string{"Pomme de terre": "120;130", "Tomate": "12,5;", "Melon": "4;5"}
	var out strings.Builder
	for i, line := range strings.Split(strings.TrimSuffix(buf.String(), "\r\n"), "\r\n") {
		if i == 0 {
			out.WriteString(line + ";janv. 2027;févr. 2027\r\n")
			continue
		}
		name, _, _ := strings.Cut(line, ";")
		out.WriteString(line + ";" + typed[name] + "\r\n")
	}
	imp, err := planning.ParseFile("products.csv", []byte(out.String()), catalog.NewIndex(ps), planning.ParseOptions{})
	if err != nil {
		t.Fatal(err)
	}
	got := map[string][]decimal.Dec{}
	for _, r := range imp.Rows {
		for _, c := range r.Cells {
			got[r.Product.ID] = append(got[r.Product.ID], c.Quantity)
		}
	}
	want := map[string][]decimal.Dec{"pomme-de-terre": {12000, 13000}, "tomate": {1250}, "melon": {400, 500}}
	if len(got) != len(want) || len(imp.Rows) != len(ps) || imp.Sheet != "products" {
		t.Fatalf("%d rows, sheet %q, quantities %v", len(imp.Rows), imp.Sheet, got)
	}
	for id, q := range want {
		if !slices.Equal(got[id], q) {
			t.Errorf("%s: %v, want %v", id, got[id], q)
		}
	}
}

// TestSheetChosen: the sheet a user names, and the refusals of a name
// that is no sheet or no table.
func TestSheetChosen(t *testing.T) {
	table := func(year int) map[string]any {
		return map[string]any{"A1": "Produit", "B1": fmt.Sprintf("janv. %d", year), "A2": "Tomate", "B2": year - 2000}
	}
	data := book(t, sheetstest.Workbook{Active: 0, Sheets: []sheetstest.Sheet{
		{Name: "Notes", Cells: map[string]any{"A1": "Rien ici"}},
		{Name: "2027", Cells: table(2027)}, {Name: "2028", Cells: table(2028)},
		{Name: "Vieux", Cells: table(2027), Hidden: true},
	}})
	ix := catalogueIndex(t)
	month := calendar.MonthOf(now)
	_, err := planning.ParseFile("a.xlsx", data, ix, planning.ParseOptions{Month: month})
	var v *core.ValidationError
	if !errors.As(err, &v) || v.Fields[0].Field != planning.ImportSheetField ||
		v.Fields[0].Message != "Plusieurs feuilles contiennent un tableau de besoins (« 2027 », « 2028 ») et aucune n'est la feuille active : choisissez celle à importer." ||
		!slices.Equal(v.Fields[0].Value.([]string), []string{"2027", "2028"}) {
		t.Fatalf("ambiguous: %+v", err)
	}
	for _, tt := range []struct{ sheet, read, refused string }{
		{"2028", "2028", ""},
		{" 2027 ", "2027", ""},
		{"vieux", "Vieux", ""},
		{"2029", "", "Le classeur n'a pas de feuille « 2029 » : ses feuilles sont « Notes », « 2027 », « 2028 », « Vieux »."},
		{"Notes", "", "La feuille « Notes » ne contient pas le tableau des besoins : une ligne d'en-tête avec une colonne « Produit » suivie d'une colonne par mois (par exemple « janv. 2027 », 01/2027 ou une date)."},
	} {
		imp, err := planning.ParseFile("a.xlsx", data, ix, planning.ParseOptions{Sheet: tt.sheet, Month: month})
		if tt.refused != "" {
			if field, msg := refusal(t, err); field != planning.ImportSheetField || msg != tt.refused {
				t.Errorf("%q: %s %q", tt.sheet, field, msg)
			}
			continue
		}
		if err != nil || imp.Sheet != tt.read || !slices.Equal(imp.Sheets, []string{"2027", "2028", "Vieux"}) {
			t.Errorf("%q: %v, read %+v", tt.sheet, err, imp)
		}
	}
	// Names longer than an answer echoes: the excerpt the answer gave
	// reads its sheet back; when two names share their excerpt, neither.
	long := strings.Repeat("besoins du magasin de la place du marché ", 3)
	for _, tt := range []struct {
		names [2]string
		read  bool
	}{
		{[2]string{"2027 " + long, "2028 " + long}, true},
		{[2]string{long + "2027", long + "2028"}, false},
	} {
		data := book(t, sheetstest.Workbook{Sheets: []sheetstest.Sheet{
			{Name: "Notes", Cells: map[string]any{"A1": "Rien ici"}},
			{Name: tt.names[0], Cells: table(2027)}, {Name: tt.names[1], Cells: table(2028)},
		}})
		_, err := planning.ParseFile("a.xlsx", data, ix, planning.ParseOptions{Month: month})
		var ve *core.ValidationError
		if !errors.As(err, &ve) {
			t.Fatalf("not ambiguous: %v", err)
		}
		echoed := ve.Fields[0].Value.([]string)
		if len([]rune(echoed[1])) != 80 || echoed[1] == tt.names[1] {
			t.Fatalf("names echoed: %q", echoed)
		}
		imp, err := planning.ParseFile("a.xlsx", data, ix, planning.ParseOptions{Sheet: echoed[1], Month: month})
		switch {
		case tt.read && (err != nil || imp.Sheet != echoed[1] || imp.Rows[0].Cells[0].Quantity != 2800):
			t.Errorf("the excerpt %q: %v %+v", echoed[1], err, imp)
		case !tt.read && err == nil:
			t.Errorf("two sheets of the excerpt %q: read %q", echoed[1], imp.Sheet)
		}
	}

	// The only visible table is read when the active sheet has none.
	data = book(t, sheetstest.Workbook{Sheets: []sheetstest.Sheet{
		{Name: "Notes", Cells: map[string]any{"A1": "Rien ici"}}, {Name: "Besoins", Cells: table(2027)},
		{Name: "Vieux", Cells: table(2028), Hidden: true},
	}})
	if imp, err := planning.ParseFile("a.xlsx", data, ix, planning.ParseOptions{Month: month}); err != nil || imp.Sheet != "Besoins" {
		t.Errorf("the only visible table: %v %+v", err, imp)
	}
}

// TestSkippedCellsAreNotComputed: a totals row, a total column, a remarks
// column hold formulas no program computes alike (OFFSET, INDIRECT): the
// import does not compute them, and reads the rest.
func TestSkippedCellsAreNotComputed(t *testing.T) {
	data := book(t, sheetstest.Workbook{Sheets: []sheetstest.Sheet{{Name: "Besoins", Cells: map[string]any{
		"A1": "Produit", "B1": "janv. 2027", "C1": "févr. 2027", "D1": "Total", "E1": "Remarques",
		"A2": "Tomate", "B2": 10, "C2": sheetstest.Formula("B2*2"), "D2": sheetstest.Formula("SUM(OFFSET(B2,0,0,1,2))"), "E2": sheetstest.Formula(`INDIRECT("A2")`),
		"A3": "Total", "B3": sheetstest.Formula("SUBTOTAL(109,Besoins[janv. 2027])"), "C3": sheetstest.Formula("OFFSET(C2,0,0)"),
	}}}})
	imp, err := planning.ParseFile("a.xlsx", data, catalogueIndex(t), planning.ParseOptions{})
	if err != nil {
		t.Fatal(err)
	}
	if len(imp.Rows) != 1 || !slices.Equal(imp.Rows[0].Cells, []planning.ImportCell{{Month: 0, Quantity: 1000, Ref: "B2"}, {Month: 1, Quantity: 2000, Ref: "C2"}}) {
		t.Fatalf("rows %+v", imp.Rows)
	}
	// The same formula in a month column is refused, naming its cell.
	data = book(t, sheetstest.Workbook{Sheets: []sheetstest.Sheet{{Name: "Besoins", Cells: map[string]any{
		"A1": "Produit", "B1": "janv. 2027", "A2": "Tomate", "B2": sheetstest.Formula("OFFSET(A2,0,0)*2"),
	}}}})
	_, err = planning.ParseFile("a.xlsx", data, catalogueIndex(t), planning.ParseOptions{})
	if _, msg := refusal(t, err); msg != "Formule impossible à calculer en B2 (« =OFFSET(A2,0,0)*2 ») : remplacez-la par sa valeur." {
		t.Errorf("refusal %q", msg)
	}
}

// TestAnswersAreBounded: however much a file holds, the answer echoes an
// excerpt of it — names cut to 80 characters, 100 names at most (with
// their count), 100 roundings at most (with their count).
func TestAnswersAreBounded(t *testing.T) {
	ix := catalogueIndex(t)
	huge := strings.Repeat("Tomate cerise géante ", 1<<20/21)
	data := book(t, sheetstest.Workbook{Sheets: []sheetstest.Sheet{{Name: "Besoins", Cells: map[string]any{
		"A1": "Produit", "B1": "janv. 2027", "A2": huge, "B2": 3,
	}}}})
	imp, err := planning.ParseFile("a.xlsx", data, ix, planning.ParseOptions{})
	if err != nil {
		t.Fatal(err)
	}
	missing, n := imp.Missing()
	if n != 1 || len([]rune(missing[0])) != 80 || !strings.HasSuffix(missing[0], "…") {
		t.Errorf("missing %d, %q", n, missing)
	}
	for _, s := range imp.Suggestions() {
		if len([]rune(s.Name)) > 80 {
			t.Errorf("suggestion echoes %d characters", len([]rune(s.Name)))
		}
	}
	cells := map[string]any{"A1": "Produit", "B1": "janv. 2027"}
	for i := range 300 {
		cells[fmt.Sprintf("A%d", i+2)] = fmt.Sprintf("Produit inconnu numéro %d %s", i, strings.Repeat("x", 200))
		cells[fmt.Sprintf("B%d", i+2)] = 1.234
	}
	cells["A400"], cells["B400"] = "Tomate", 1.239
	imp, err = planning.ParseFile("a.xlsx", book(t, sheetstest.Workbook{Sheets: []sheetstest.Sheet{{Name: "Besoins", Cells: cells}}}), ix, planning.ParseOptions{})
	if err != nil {
		t.Fatal(err)
	}
	missing, n = imp.Missing()
	if n != 300 || len(missing) != 100 {
		t.Errorf("missing %d listed of %d", len(missing), n)
	}
	answer, _ := json.Marshal(struct {
		M []string
		S []planning.ImportSuggestion
	}{missing, imp.Suggestions()})
	if len(answer) > 100*(80*4+8)+30*(2*80*4) {
		t.Errorf("the answer echoes %d bytes", len(answer))
	}
}

// TestImportAnswerIsBounded: the import's answer lists 100 roundings and
// 100 missing names at most, with their counts, on both engines.
func TestImportAnswerIsBounded(t *testing.T) {
	ps, err := catalog.Figures() // the fixture's world (setup)
	if err != nil {
		t.Fatal(err)
	}
	cells := map[string]any{"A1": "Produit", "B1": "janv. 2027", "C1": "févr. 2027", "D1": "mars 2027"}
	row := 2
	for _, p := range ps {
		if p.Unit != catalog.Kg {
			continue
		}
		cells[fmt.Sprintf("A%d", row)] = p.Name
		for c := 'B'; c <= 'D'; c++ {
			cells[fmt.Sprintf("%c%d", c, row)] = 1.234
		}
		row++
	}
	for i := range 150 {
		cells[fmt.Sprintf("A%d", row)] = fmt.Sprintf("Inconnu %d %s", i, strings.Repeat("é", 500))
		row++
	}
	data := book(t, sheetstest.Workbook{Sheets: []sheetstest.Sheet{{Name: "Besoins", Cells: cells}}})
	storetest.Each(t, func(t *testing.T, db *store.DB) {
		shop := setup(t, db).shop
		res, err := planning.ImportXLSX(context.Background(), db, shop.ID, "b.xlsx", data, now, planning.ImportOptions{DryRun: true})
		if err != nil {
			t.Fatal(err)
		}
		if len(res.Rounded) != 100 || res.RoundedCount <= 100 || len(res.ProductsMissing) != 100 || res.MissingCount != 150 {
			t.Fatalf("rounded %d of %d, missing %d of %d", len(res.Rounded), res.RoundedCount, len(res.ProductsMissing), res.MissingCount)
		}
		for _, name := range res.ProductsMissing {
			if len([]rune(name)) > 80 {
				t.Fatalf("a missing name of %d characters", len([]rune(name)))
			}
		}
		if res.Sheet != "Besoins" || !slices.Equal(res.Sheets, []string{"Besoins"}) {
			t.Errorf("sheet %q %q", res.Sheet, res.Sheets)
		}
	})
}
