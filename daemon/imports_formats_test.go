package daemon_test

import (
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"primeur/core/planning"
	"primeur/core/sheets/sheetstest"
	"primeur/core/store"
	"primeur/core/store/storetest"
	"primeur/daemon/daemontest"
)

func realFile(t *testing.T, name string) []byte {
	t.Helper()
	data, err := os.ReadFile(filepath.Join("..", "testdata", "xlsx", "real", name))
	if err != nil {
		t.Fatal(err)
	}
	return data
}

// sheetAnswer is what the import's answer says of the sheets.
type sheetAnswer struct {
	Sheet                string
	Sheets               []string
	ProductsMissing      []string
	ProductsMissingCount int
	Changes              []struct{ Cell string }
	DBSuccesses          int
}

// TestNeedsLoaderFormats: the upload and its preview read .ods and .csv as
// .xlsx, name the sheet read, let the shop choose it (the field sheet),
// refuse an ambiguous choice naming the sheets (and giving their names as
// the error's value), tell how to save .xls and .xlsm, and echo a bounded
// excerpt of the file — refusals changing nothing, on both engines.
func TestNeedsLoaderFormats(t *testing.T) {
	t.Parallel()
	storetest.Each(t, func(t *testing.T, db *store.DB) {
		s := daemontest.New(t, db)
		shop, _ := s.Register("shop@example.fr", "Épicerie", true)

		var res sheetAnswer
		shop.Upload("/api/needs-loader/preview", "importfile", "besoins.ods", realFile(t, "libreoffice-french-months.ods")).
			Expect(t, 200).JSON(t, &res)
		if res.Sheet != "Besoins" || !slices.Equal(res.Sheets, []string{"Besoins"}) || len(res.Changes) != 6 {
			t.Fatalf("ods preview %+v", res)
		}
		shop.Upload("/api/needs-loader/preview", "importfile", "besoins.csv", realFile(t, "libreoffice-csv-cp1252.csv")).
			Expect(t, 200).JSON(t, &res)
		if res.Sheet != "besoins" || len(res.Changes) != 7 {
			t.Fatalf("csv preview %+v", res)
		}

		ambiguous := realFile(t, "libreoffice-two-tables.ods")
		p := shop.Upload("/api/needs-loader/preview", "importfile", "b.ods", ambiguous).Expect(t, 422).Problem(t)
		if len(p.Errors) != 1 || p.Errors[0].Location != "body."+planning.ImportSheetField || !strings.Contains(p.Detail, "« 2027 », « 2028 »") {
			t.Fatalf("ambiguous: %+v", p)
		}
		if names, ok := p.Errors[0].Value.([]any); !ok || len(names) != 2 || names[0] != "2027" || names[1] != "2028" {
			t.Fatalf("the sheets' names as the value: %#v", p.Errors[0].Value)
		}

		// A product name of a megabyte in a file of a few kilobytes.
		huge, err := sheetstest.XLSX(sheetstest.Workbook{Sheets: []sheetstest.Sheet{{Name: "Besoins", Cells: map[string]any{
			"A1": "Produit", "B1": "janv. 2027", "A2": strings.Repeat("Tomate ancienne ", 1<<16), "B2": 3, "A3": "Tomate", "B3": 4,
		}}}})
		if err != nil {
			t.Fatal(err)
		}
		answer := shop.Upload("/api/needs-loader/preview", "importfile", "b.xlsx", huge).Expect(t, 200)
		answer.JSON(t, &res)
		if len(huge) > 64<<10 || len(answer.Body) > 8<<10 || res.ProductsMissingCount != 1 || len([]rune(res.ProductsMissing[0])) != 80 {
			t.Fatalf("a %d-byte upload answered %d bytes: %+v", len(huge), len(answer.Body), res.ProductsMissing)
		}

		s.Refuses(t, []daemontest.Refused{
			{Name: "ambiguous sheets", Send: func() *daemontest.Response {
				return shop.Upload("/api/needs-loader", "importfile", "b.ods", ambiguous)
			}, Status: 422, Detail: "Plusieurs feuilles contiennent un tableau de besoins (« 2027 », « 2028 ») et aucune n'est la feuille active : choisissez celle à importer."},
			{Name: "no such sheet", Send: func() *daemontest.Response {
				return shop.UploadForm("/api/needs-loader", "importfile", "b.ods", ambiguous, map[string]string{"sheet": "2030"})
			}, Status: 422, Detail: "Le classeur n'a pas de feuille « 2030 » : ses feuilles sont « Mode d'emploi », « 2027 », « 2028 »."},
			{Name: "a sheet without a table", Send: func() *daemontest.Response {
				return shop.UploadForm("/api/needs-loader", "importfile", "b.ods", ambiguous, map[string]string{"sheet": "Mode d'emploi"})
			}, Status: 422, Detail: "La feuille « Mode d'emploi » ne contient pas le tableau des besoins : une ligne d'en-tête avec une colonne « Produit » suivie d'une colonne par mois (par exemple « janv. 2027 », 01/2027 ou une date)."},
			{Name: "xls", Send: func() *daemontest.Response {
				return shop.Upload("/api/needs-loader", "importfile", "besoins.xls", realFile(t, "libreoffice-french-months.xlsx"))
			}, Status: 422, Detail: planning.MsgImportLegacy},
			{Name: "xlsm", Send: func() *daemontest.Response {
				return shop.Upload("/api/needs-loader", "importfile", "besoins.xlsm", realFile(t, "libreoffice-french-months.xlsx"))
			}, Status: 422, Detail: planning.MsgImportMacro},
			{Name: "an .xlsx named .ods", Send: func() *daemontest.Response {
				return shop.Upload("/api/needs-loader", "importfile", "besoins.ods", realFile(t, "libreoffice-french-months.xlsx"))
			}, Status: 422, Detail: planning.MsgImportNotODS},
			{Name: "a workbook named .csv", Send: func() *daemontest.Response {
				return shop.Upload("/api/needs-loader", "importfile", "besoins.csv", realFile(t, "libreoffice-french-months.ods"))
			}, Status: 422, Detail: planning.MsgImportNotCSV},
		})

		var done sheetAnswer
		shop.UploadForm("/api/needs-loader", "importfile", "b.ods", ambiguous, map[string]string{"sheet": "2028"}).Expect(t, 200).JSON(t, &done)
		if done.Sheet != "2028" || !slices.Equal(done.Sheets, []string{"2027", "2028"}) || done.DBSuccesses != 6 {
			t.Fatalf("sheet chosen: %+v", done)
		}
	})
}
