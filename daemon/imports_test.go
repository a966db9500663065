package daemon_test

import (
	"bytes"
	"io"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/xuri/excelize/v2"

	"primeur/core/activity"
	"primeur/core/planning"
	"primeur/core/store"
	"primeur/core/store/storetest"
	"primeur/daemon"
	"primeur/daemon/daemontest"
)

func xlsxFixture(t *testing.T, name string) []byte {
	t.Helper()
	data, err := os.ReadFile(filepath.Join("..", "testdata", "xlsx", name))
	if err != nil {
		t.Fatal(err)
	}
	return data
}

// importJSON is the answer of POST /api/needs-loader.
type importJSON struct {
	Needs           []needJSON
	ProductsFound   []string
	ProductsMissing []string
	DBErrors        []struct {
		Product   string
		ProductID string
		Date      string
		Quantity  float64
		Reserved  float64
		Cell      string
		Message   string
	}
	DBSuccesses int
	Event       activity.View
}

func TestNeedsLoader(t *testing.T) {
	t.Parallel()
	storetest.Each(t, func(t *testing.T, db *store.DB) {
		s := daemontest.New(t, db)
		shop, shopID := s.Register("shop@example.fr", "Épicerie", true)
		other, otherID := s.Register("other@example.fr", "Autre magasin", true)
		farm, _ := s.Producer("ferme@example.fr", "Ferme")

		var res importJSON
		shop.Upload("/api/needs-loader", "importfile", "besoins.xlsx", xlsxFixture(t, "good.xlsx")).Expect(t, 200).JSON(t, &res)
		// Kumquats and physalis are in the catalogue since migration 48:
		// 35 cells of 6 products, 2 unknown.
		if res.DBSuccesses != 35 || len(res.Needs) != 35 || len(res.DBErrors) != 0 || len(res.ProductsFound) != 6 ||
			strings.Join(res.ProductsMissing, ",") != "Yuzu,Fruit du dragon" {
			t.Fatalf("import = %+v", res)
		}
		if res.Event.Type != activity.NeedImport || res.Event.Origin.Email != "shop@example.fr" || res.Needs[0].Distributor != shopID {
			t.Fatalf("event %+v", res.Event)
		}
		var feed []activity.View
		shop.Do("GET", "/api/events", nil).Expect(t, 200).JSON(t, &feed)
		if len(feed) != 1 || feed[0].Type != activity.NeedImport {
			t.Fatalf("feed %+v", feed)
		}

		malformed := "--x\r\nContent-Disposition: form-data; name=\"importfile\"; filename=\"a.xlsx\"\r\n\r\nPK\x03\x04 and no end"
		big := bytes.Repeat([]byte("x"), 6<<20)
		s.Refuses(t, []daemontest.Refused{
			{Name: "producer", Send: func() *daemontest.Response {
				return farm.Upload("/api/needs-loader", "importfile", "b.xlsx", xlsxFixture(t, "good.xlsx"))
			}, Status: 403, Detail: daemon.MsgShopsOnly},
			{Name: "anonymous", Send: func() *daemontest.Response {
				return s.Client().Upload("/api/needs-loader", "importfile", "b.xlsx", xlsxFixture(t, "good.xlsx"))
			}, Status: 401, Detail: daemon.MsgNoToken},
			{Name: "not multipart", Send: func() *daemontest.Response {
				return shop.Send("POST", "/api/needs-loader", "application/json", strings.NewReader(`{"importfile":"x"}`))
			}, Status: 415, Detail: daemon.MsgUploadNotMultipart},
			{Name: "malformed multipart", Send: func() *daemontest.Response {
				return shop.Send("POST", "/api/needs-loader", "multipart/form-data; boundary=x", strings.NewReader(malformed))
			}, Status: 400, Detail: daemon.MsgUploadUnreadable},
			{Name: "multipart without boundary", Send: func() *daemontest.Response {
				return shop.Send("POST", "/api/needs-loader", "multipart/form-data", strings.NewReader(malformed))
			}, Status: 400, Detail: daemon.MsgUploadUnreadable},
			{Name: "no file field", Send: func() *daemontest.Response {
				return shop.Upload("/api/needs-loader", "fichier", "b.xlsx", xlsxFixture(t, "good.xlsx"))
			}, Status: 422, Detail: planning.MsgImportNoFile},
			{Name: "xls name", Send: func() *daemontest.Response {
				return shop.Upload("/api/needs-loader", "importfile", "besoins.xls", xlsxFixture(t, "good.xlsx"))
			}, Status: 422, Detail: planning.MsgImportLegacy},
			{Name: "huge body", Send: func() *daemontest.Response {
				return shop.Upload("/api/needs-loader", "importfile", "b.xlsx", big)
			}, Status: 413, Detail: planning.MsgImportTooBig},
			{Name: "huge chunked body", Send: func() *daemontest.Response {
				return shop.Send("POST", "/api/needs-loader", "multipart/form-data; boundary=x", io.MultiReader(bytes.NewReader(big)))
			}, Status: 413, Detail: planning.MsgImportTooBig},
			{Name: "file just over the limit", Send: func() *daemontest.Response {
				return shop.Upload("/api/needs-loader", "importfile", "b.xlsx", big[:planning.MaxImportBytes+1])
			}, Status: 413, Detail: planning.MsgImportTooBig},
		})
		before := storetest.SnapshotExcept(t, db, storetest.Bookkeeping...)
		for _, f := range []string{"not-a-zip.xlsx", "password.xlsx", "empty-sheet.xlsx", "no-header.xlsx", "bad-month.xlsx",
			"text-quantity.xlsx", "negative-quantity.xlsx", "half-melon.xlsx", "duplicate-product.xlsx", "too-many-months.xlsx",
			"too-many-rows.xlsx", "too-many-entries.xlsx", "zip-bomb.xlsx", "zip-bomb-lying.xlsx"} {
			t.Run(f, func(t *testing.T) {
				p := shop.Upload("/api/needs-loader", "importfile", f, xlsxFixture(t, f)).Expect(t, 422).Problem(t)
				if p.Detail == "" || p.Errors[0].Location != "body.importfile" {
					t.Fatalf("problem %+v", p)
				}
				if after := storetest.SnapshotExcept(t, db, storetest.Bookkeeping...); after != before {
					t.Fatalf("a bad file changed the database:\n%s", storetest.Changes(before, after))
				}
			})
		}
		p := shop.Upload("/api/needs-loader", "importfile", "t.xlsx", xlsxFixture(t, "text-quantity.xlsx")).Expect(t, 422).Problem(t)
		if p.Detail != "Quantité illisible en B4 (« douze ») : saisissez un nombre, par exemple 12,5, ou laissez la case vide." {
			t.Fatalf("detail %q", p.Detail)
		}

		// Another shop's import writes its own needs only.
		var theirs importJSON
		other.Upload("/api/needs-loader", "importfile", "a.xlsx", xlsxFixture(t, "accents-case.xlsx")).Expect(t, 200).JSON(t, &theirs)
		for _, n := range theirs.Needs {
			if n.Distributor != otherID {
				t.Fatalf("need of %s", n.Distributor)
			}
		}
		var mine []needJSON
		shop.Do("GET", "/api/needs", nil).Expect(t, 200).JSON(t, &mine)
		if len(mine) != 35 {
			t.Fatalf("the first shop has %d needs", len(mine))
		}
	})
}

// TestExampleFile downloads the example file and imports it as is.
func TestExampleFile(t *testing.T) {
	t.Parallel()
	storetest.Each(t, func(t *testing.T, db *store.DB) {
		s := daemontest.New(t, db)
		shop, _ := s.Register("shop@example.fr", "Épicerie", true)
		res := s.Client().Do("GET", "/public/other/exemple_import.xlsx", nil).Expect(t, 200)
		if res.Header.Get("Content-Type") != "application/vnd.openxmlformats-officedocument.spreadsheetml.sheet" ||
			!strings.Contains(res.Header.Get("Content-Disposition"), "exemple_import.xlsx") {
			t.Fatalf("headers %v", res.Header)
		}
		f, err := excelize.OpenReader(bytes.NewReader(res.Body))
		if err != nil {
			t.Fatal(err)
		}
		rows, err := f.GetRows(f.GetSheetList()[0], excelize.Options{RawCellValue: true})
		props, perr := f.GetDocProps()
		sheets := f.GetSheetList()
		f.Close()
		// The clock is on 2026-11-20: twelve months from December 2026
		// (Excel serials 46357 and 46692), below the instructions.
		if err != nil || len(rows) < 8 || rows[0][0] != planning.ExampleInstructions || rows[2][0] != "Produit" ||
			rows[2][1] != "46357" || rows[2][12] != "46692" {
			t.Fatalf("example rows %v, %v", rows, err)
		}
		if perr != nil || props.Creator != "Primeur" || !strings.HasPrefix(props.Created, "2026-11-20") ||
			!slices.Equal(sheets, []string{"Besoins", "Produits"}) {
			t.Fatalf("properties %+v %v, sheets %v", props, perr, sheets)
		}
		rows = rows[2:]
		var imp importJSON
		shop.Upload("/api/needs-loader", "importfile", "exemple_import.xlsx", res.Body).Expect(t, 200).JSON(t, &imp)
		if len(imp.ProductsMissing) != 0 || len(imp.DBErrors) != 0 || len(imp.ProductsFound) != len(rows)-1 || imp.DBSuccesses < 100 {
			t.Fatalf("example import %+v", imp)
		}
		for _, n := range imp.Needs {
			if n.Quantity <= 0 || n.Date < "2026-12-01" || n.Date > "2027-11-01" {
				t.Fatalf("need %+v", n)
			}
		}

		// In December, the example starts in January and still imports as is.
		s.Clock.Advance(12 * 24 * time.Hour) // 2 December: the sessions are still alive
		res = s.Client().Do("GET", "/public/other/exemple_import.xlsx", nil).Expect(t, 200)
		shop.Upload("/api/needs-loader", "importfile", "exemple_import.xlsx", res.Body).Expect(t, 200).JSON(t, &imp)
		if len(imp.DBErrors) != 0 || imp.Event.Data.Dates[0] != "2027-01-01" {
			t.Fatalf("example a month later %+v", imp.Event.Data)
		}
	})
}

func TestStandardImportAPI(t *testing.T) {
	t.Parallel()
	storetest.Each(t, func(t *testing.T, db *store.DB) {
		s := daemontest.New(t, db)
		shop, _ := s.Register("shop@example.fr", "Épicerie", true)
		farm, _ := s.Producer("ferme@example.fr", "Ferme")
		months := []string{"2026-12-01", "2027-01-01", "2027-02-01", "2027-03-01"}
		before := storetest.SnapshotExcept(t, db, storetest.Bookkeeping...)

		var preview []struct {
			ID     string `json:"_id"`
			Name   string
			Unit   string
			Values []struct {
				Date     string
				Quantity float64
			}
		}
		shop.Do("POST", "/api/needs/importstd/sim", map[string]any{"turnover": 120000, "months": months}).Expect(t, 200).JSON(t, &preview)
		if len(preview) < 40 || len(preview[0].Values) != 3 || preview[0].Values[2].Date != "2027-02-01" || preview[0].Name == "" {
			t.Fatalf("preview %+v", preview[:1])
		}
		if after := storetest.SnapshotExcept(t, db, storetest.Bookkeeping...); after != before {
			t.Fatalf("a simulation wrote:\n%s", storetest.Changes(before, after))
		}

		s.Refuses(t, []daemontest.Refused{
			{Name: "producer simulates", Client: farm, Method: "POST", Path: "/api/needs/importstd/sim", Body: map[string]any{"turnover": 1000, "months": months}, Status: 403, Detail: daemon.MsgShopsOnly},
			{Name: "producer commits", Client: farm, Method: "POST", Path: "/api/needs/importstd/commit", Body: map[string]any{"turnover": 1000, "months": months}, Status: 403, Detail: daemon.MsgShopsOnly},
			{Name: "anonymous", Client: s.Client(), Method: "POST", Path: "/api/needs/importstd/commit", Body: map[string]any{"turnover": 1000, "months": months}, Status: 401, Detail: daemon.MsgNoToken},
			{Name: "no turnover", Client: shop, Method: "POST", Path: "/api/needs/importstd/commit", Body: map[string]any{"months": months}, Status: 422, Detail: planning.MsgTurnover},
			{Name: "negative turnover", Client: shop, Method: "POST", Path: "/api/needs/importstd/sim", Body: map[string]any{"turnover": -3, "months": months}, Status: 422, Detail: planning.MsgTurnover},
			{Name: "huge turnover", Client: shop, Method: "POST", Path: "/api/needs/importstd/commit", Body: map[string]any{"turnover": 5e9, "months": months}, Status: 422, Detail: planning.MsgTurnoverTooLarge},
			{Name: "turnover as text", Client: shop, Method: "POST", Path: "/api/needs/importstd/commit", Body: map[string]any{"turnover": "100000", "months": months}, Status: 422},
			{Name: "overflowing turnover", Client: shop, Method: "POST", Path: "/api/needs/importstd/commit", Body: `{"turnover":1e400,"months":["2026-12"]}`, Status: 400},
			{Name: "no months", Client: shop, Method: "POST", Path: "/api/needs/importstd/commit", Body: map[string]any{"turnover": 1000}, Status: 422, Detail: planning.MsgStandardMonths},
			{Name: "37 months", Client: shop, Method: "POST", Path: "/api/needs/importstd/commit", Body: map[string]any{"turnover": 1000, "months": make([]string, 37)}, Status: 422, Detail: planning.MsgStandardMonths},
			{Name: "past month", Client: shop, Method: "POST", Path: "/api/needs/importstd/commit", Body: map[string]any{"turnover": 1000, "months": []string{"2026-10"}}, Status: 422, Detail: planning.MsgPastMonth},
			{Name: "bad month", Client: shop, Method: "POST", Path: "/api/needs/importstd/sim", Body: map[string]any{"turnover": 1000, "months": []string{"12/2026"}}, Status: 422, Detail: planning.MsgBadMonth},
			{Name: "unknown field", Client: shop, Method: "POST", Path: "/api/needs/importstd/commit", Body: map[string]any{"turnover": 1000, "months": months, "share": 20}, Status: 422},
		})

		var out struct {
			Needs       []needJSON
			Event       activity.View
			DBErrors    []any
			DBSuccesses int
		}
		shop.Do("POST", "/api/needs/importstd/commit", map[string]any{"turnover": 120000, "months": months}).Expect(t, 200).JSON(t, &out)
		if len(out.Needs) < 4*40 || out.DBSuccesses != len(out.Needs) || len(out.DBErrors) != 0 || out.Event.Type != activity.NeedImport ||
			len(out.Event.Data.Dates) != 4 {
			t.Fatalf("commit: %d needs, event %+v", len(out.Needs), out.Event)
		}
		var mine []needJSON
		shop.Do("GET", "/api/needs", nil).Expect(t, 200).JSON(t, &mine)
		if len(mine) != len(out.Needs) {
			t.Fatalf("%d needs listed, %d written", len(mine), len(out.Needs))
		}
	})
}

// TestPreviewThenImport: the preview of a file says what the import would
// write and writes nothing; the import then writes exactly that; a file
// with several problems answers every one of them.
func TestPreviewThenImport(t *testing.T) {
	t.Parallel()
	storetest.Each(t, func(t *testing.T, db *store.DB) {
		s := daemontest.New(t, db)
		shop, _ := s.Register("shop@example.fr", "Épicerie", true)
		farm, _ := s.Producer("ferme@example.fr", "Ferme")
		file := xlsxFixture(t, filepath.Join("real", "libreoffice-french-months.xlsx"))
		type change struct {
			ProductID string
			Date      string
			Cell      string
			From      *float64
			To        float64
		}
		var preview struct {
			Changes     []change
			DBSuccesses int
			Rounded     []struct{ Cell string }
			Suggestions []struct{ Name, Product string }
		}
		before := storetest.SnapshotExcept(t, db, storetest.Bookkeeping...)
		shop.Upload("/api/needs-loader/preview", "importfile", "besoins.xlsx", file).Expect(t, 200).JSON(t, &preview)
		if len(preview.Changes) != 6 || preview.DBSuccesses != 6 || preview.Changes[0].From != nil ||
			preview.Changes[0].ProductID != "tomate" || preview.Changes[0].Date != "2027-01-01" || preview.Changes[0].Cell != "B3" ||
			preview.Changes[0].To != 120 || preview.Rounded == nil || preview.Suggestions == nil {
			t.Fatalf("preview %+v", preview)
		}
		if after := storetest.SnapshotExcept(t, db, storetest.Bookkeeping...); after != before {
			t.Fatalf("the preview wrote:\n%s", storetest.Changes(before, after))
		}
		farm.Upload("/api/needs-loader/preview", "importfile", "besoins.xlsx", file).Expect(t, 403)

		var imp importJSON
		shop.Upload("/api/needs-loader", "importfile", "besoins.xlsx", file).Expect(t, 200).JSON(t, &imp)
		if imp.DBSuccesses != 6 || len(imp.Needs) != 6 {
			t.Fatalf("import %+v", imp)
		}
		// Again: nothing would change.
		shop.Upload("/api/needs-loader/preview", "importfile", "besoins.xlsx", file).Expect(t, 200).JSON(t, &preview)
		if len(preview.Changes) != 0 || preview.DBSuccesses != 6 {
			t.Fatalf("second preview %+v", preview)
		}

		p := shop.Upload("/api/needs-loader/preview", "importfile", "p.xlsx",
			xlsxFixture(t, filepath.Join("real", "openpyxl-problems.xlsx"))).Expect(t, 422).Problem(t)
		if len(p.Errors) != 4 || p.Detail != p.Errors[0].Message {
			t.Fatalf("problems %+v", p)
		}
		for i, ref := range []string{"B2", "B3", "B4", "B5"} {
			if p.Errors[i].Location != "body.importfile" || !strings.Contains(p.Errors[i].Message, " "+ref+" ") {
				t.Errorf("problem %d: %+v", i, p.Errors[i])
			}
		}
	})
}
