package daemon_test

import (
	"bytes"
	"io"
	"os"
	"path/filepath"
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

// dbState is the needs and the number of events, to prove a refused call
// changed nothing.
func dbState(t *testing.T, db *store.DB) string {
	t.Helper()
	var events int
	if err := db.Get(&events, `SELECT COUNT(*) FROM events`); err != nil {
		t.Fatal(err)
	}
	return needsSnapshot(t, db) + "|" + strings.Repeat("e", events)
}

func TestNeedsLoader(t *testing.T) {
	storetest.Each(t, func(t *testing.T, db *store.DB) {
		s := daemontest.New(t, db)
		shop, shopID := s.Register("shop@example.fr", "Épicerie", true)
		other, otherID := s.Register("other@example.fr", "Autre magasin", true)
		farm, _ := s.Producer("ferme@example.fr", "Ferme")

		var res importJSON
		shop.Upload("/api/needs-loader", "importfile", "besoins.xlsx", xlsxFixture(t, "good.xlsx")).Expect(t, 200).JSON(t, &res)
		if res.DBSuccesses != 32 || len(res.Needs) != 32 || len(res.DBErrors) != 0 || len(res.ProductsFound) != 4 ||
			strings.Join(res.ProductsMissing, ",") != "Kumquat,Yuzu,Physalis,Fruit du dragon" {
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

		before := dbState(t, db)
		malformed := "--x\r\nContent-Disposition: form-data; name=\"importfile\"; filename=\"a.xlsx\"\r\n\r\nPK\x03\x04 and no end"
		big := bytes.Repeat([]byte("x"), 6<<20)
		refused := []struct {
			name   string
			send   func() *daemontest.Response
			status int
			msg    string
		}{
			{"producer", func() *daemontest.Response {
				return farm.Upload("/api/needs-loader", "importfile", "b.xlsx", xlsxFixture(t, "good.xlsx"))
			}, 403, daemon.MsgShopsOnly},
			{"anonymous", func() *daemontest.Response {
				return s.Client().Upload("/api/needs-loader", "importfile", "b.xlsx", xlsxFixture(t, "good.xlsx"))
			}, 401, daemon.MsgNoToken},
			{"not multipart", func() *daemontest.Response {
				return shop.Send("POST", "/api/needs-loader", "application/json", strings.NewReader(`{"importfile":"x"}`))
			}, 415, daemon.MsgUploadNotMultipart},
			{"malformed multipart", func() *daemontest.Response {
				return shop.Send("POST", "/api/needs-loader", "multipart/form-data; boundary=x", strings.NewReader(malformed))
			}, 400, daemon.MsgUploadUnreadable},
			{"multipart without boundary", func() *daemontest.Response {
				return shop.Send("POST", "/api/needs-loader", "multipart/form-data", strings.NewReader(malformed))
			}, 400, daemon.MsgUploadUnreadable},
			{"no file field", func() *daemontest.Response {
				return shop.Upload("/api/needs-loader", "fichier", "b.xlsx", xlsxFixture(t, "good.xlsx"))
			}, 422, planning.MsgImportNoFile},
			{"xls name", func() *daemontest.Response {
				return shop.Upload("/api/needs-loader", "importfile", "besoins.xls", xlsxFixture(t, "good.xlsx"))
			}, 422, planning.MsgImportExtension},
			{"huge body", func() *daemontest.Response {
				return shop.Upload("/api/needs-loader", "importfile", "b.xlsx", big)
			}, 413, planning.MsgImportTooBig},
			{"huge chunked body", func() *daemontest.Response {
				return shop.Send("POST", "/api/needs-loader", "multipart/form-data; boundary=x", io.MultiReader(bytes.NewReader(big)))
			}, 413, planning.MsgImportTooBig},
			{"file just over the limit", func() *daemontest.Response {
				return shop.Upload("/api/needs-loader", "importfile", "b.xlsx", big[:planning.MaxImportBytes+1])
			}, 413, planning.MsgImportTooBig},
		}
		for _, tt := range refused {
			t.Run(tt.name, func(t *testing.T) {
				p := tt.send().Expect(t, tt.status).Problem(t)
				if p.Detail != tt.msg {
					t.Fatalf("detail %q, want %q", p.Detail, tt.msg)
				}
				if dbState(t, db) != before {
					t.Fatal("a refused upload changed the database")
				}
			})
		}
		for _, f := range []string{"not-a-zip.xlsx", "password.xlsx", "empty-sheet.xlsx", "no-header.xlsx", "bad-month.xlsx",
			"text-quantity.xlsx", "negative-quantity.xlsx", "half-melon.xlsx", "duplicate-product.xlsx", "too-many-months.xlsx",
			"too-many-rows.xlsx", "too-many-entries.xlsx", "zip-bomb.xlsx", "zip-bomb-lying.xlsx"} {
			t.Run(f, func(t *testing.T) {
				p := shop.Upload("/api/needs-loader", "importfile", f, xlsxFixture(t, f)).Expect(t, 422).Problem(t)
				if p.Detail == "" || p.Errors[0].Location != "body.importfile" {
					t.Fatalf("problem %+v", p)
				}
				if dbState(t, db) != before {
					t.Fatal("a bad file changed the database")
				}
			})
		}
		p := shop.Upload("/api/needs-loader", "importfile", "t.xlsx", xlsxFixture(t, "text-quantity.xlsx")).Expect(t, 422).Problem(t)
		if p.Detail != "Quantité illisible en B4 (« douze ») : saisissez un nombre." {
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
		if len(mine) != 32 {
			t.Fatalf("the first shop has %d needs", len(mine))
		}
	})
}

// TestExampleFile downloads the example file and imports it as is.
func TestExampleFile(t *testing.T) {
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
		rows, err := f.GetRows(f.GetSheetList()[0])
		f.Close()
		// The clock is on 2026-11-20: twelve months from December 2026.
		if err != nil || len(rows) < 6 || rows[0][0] != "Produit" || rows[0][1] != "12/2026" || rows[0][12] != "11/2027" {
			t.Fatalf("example rows %v, %v", rows, err)
		}
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
	storetest.Each(t, func(t *testing.T, db *store.DB) {
		s := daemontest.New(t, db)
		shop, _ := s.Register("shop@example.fr", "Épicerie", true)
		farm, _ := s.Producer("ferme@example.fr", "Ferme")
		months := []string{"2026-12-01", "2027-01-01", "2027-02-01", "2027-03-01"}
		before := dbState(t, db)

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
		if dbState(t, db) != before {
			t.Fatal("a simulation wrote")
		}

		refused := []struct {
			name   string
			c      *daemontest.Client
			path   string
			body   any
			status int
			msg    string
		}{
			{"producer simulates", farm, "/api/needs/importstd/sim", map[string]any{"turnover": 1000, "months": months}, 403, daemon.MsgShopsOnly},
			{"producer commits", farm, "/api/needs/importstd/commit", map[string]any{"turnover": 1000, "months": months}, 403, daemon.MsgShopsOnly},
			{"anonymous", s.Client(), "/api/needs/importstd/commit", map[string]any{"turnover": 1000, "months": months}, 401, daemon.MsgNoToken},
			{"no turnover", shop, "/api/needs/importstd/commit", map[string]any{"months": months}, 422, planning.MsgTurnover},
			{"negative turnover", shop, "/api/needs/importstd/sim", map[string]any{"turnover": -3, "months": months}, 422, planning.MsgTurnover},
			{"huge turnover", shop, "/api/needs/importstd/commit", map[string]any{"turnover": 5e9, "months": months}, 422, planning.MsgTurnoverTooLarge},
			{"turnover as text", shop, "/api/needs/importstd/commit", map[string]any{"turnover": "100000", "months": months}, 422, ""},
			{"overflowing turnover", shop, "/api/needs/importstd/commit", `{"turnover":1e400,"months":["2026-12"]}`, 400, ""},
			{"no months", shop, "/api/needs/importstd/commit", map[string]any{"turnover": 1000}, 422, planning.MsgStandardMonths},
			{"37 months", shop, "/api/needs/importstd/commit", map[string]any{"turnover": 1000, "months": make([]string, 37)}, 422, planning.MsgStandardMonths},
			{"past month", shop, "/api/needs/importstd/commit", map[string]any{"turnover": 1000, "months": []string{"2026-10"}}, 422, planning.MsgPastMonth},
			{"bad month", shop, "/api/needs/importstd/sim", map[string]any{"turnover": 1000, "months": []string{"12/2026"}}, 422, planning.MsgBadMonth},
			{"unknown field", shop, "/api/needs/importstd/commit", map[string]any{"turnover": 1000, "months": months, "share": 20}, 422, ""},
		}
		for _, tt := range refused {
			t.Run(tt.name, func(t *testing.T) {
				p := tt.c.Do("POST", tt.path, tt.body).Expect(t, tt.status).Problem(t)
				if tt.msg != "" && p.Detail != tt.msg {
					t.Fatalf("detail %q, want %q", p.Detail, tt.msg)
				}
				if dbState(t, db) != before {
					t.Fatal("a refused call changed the database")
				}
			})
		}

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
