package daemon_test

import (
	"bytes"
	"context"
	"database/sql"
	"encoding/json"
	"io"
	"net/http"
	"net/http/cookiejar"
	"strings"
	"testing"

	"primeur/core/decimal"
	"primeur/core/orders"
	"primeur/core/planning"
	"primeur/core/store"
	"primeur/core/store/storetest"
	"primeur/core/trade/tradetest"
	"primeur/daemon/daemontest"
)

// fuzzClient is a logged-in HTTP client whose calls report to the current
// fuzz iteration's t (daemontest's clients belong to the F); every answer
// is checked against the OpenAPI document, as daemontest's are.
type fuzzClient struct {
	base     string
	http     *http.Client
	contract *daemontest.Contract
}

func fuzzLogin(f *testing.F, s *daemontest.Server, email string) fuzzClient {
	f.Helper()
	jar, _ := cookiejar.New(nil)
	c := fuzzClient{base: s.URL, http: &http.Client{Jar: jar}, contract: s.Contract()}
	body, _ := json.Marshal(map[string]string{"email": email, "password": daemontest.Password})
	res, err := c.http.Post(c.base+"/auth/login", "application/json", bytes.NewReader(body))
	if err != nil || res.StatusCode != http.StatusOK {
		f.Fatalf("login %s: %v %v", email, res, err)
	}
	res.Body.Close()
	return c
}

// send sends a JSON body as is and returns the status and the answer.
func (c fuzzClient) send(t testing.TB, method, path string, body []byte) (int, []byte) {
	t.Helper()
	req, err := http.NewRequest(method, c.base+path, bytes.NewReader(body))
	if err != nil {
		t.Fatal(err)
	}
	req.Header.Set("Content-Type", "application/json")
	res, err := c.http.Do(req)
	if err != nil {
		t.Fatalf("%s %s: %v", method, path, err)
	}
	defer res.Body.Close()
	data, err := io.ReadAll(res.Body)
	if err != nil {
		t.Fatal(err)
	}
	for _, p := range c.contract.Check(req, res.StatusCode, res.Header, data) {
		t.Errorf("%s %s: %s", method, path, p)
	}
	return res.StatusCode, data
}

func deref(s *string) string {
	if s == nil {
		return "<nil>"
	}
	return *s
}

// FuzzNeedPayload sends arbitrary bodies to the three need writes of the
// API (create, update, bulk) as a shop, on a real daemon and database. No
// body gets a 5xx. A refused one changes nothing (needs and events). An
// accepted one stored exactly what it asked: the product, the month the
// date names, the quantity to the hundredth, as the answer says and the
// database holds.
func FuzzNeedPayload(f *testing.F) {
	for _, s := range []struct {
		op   uint8
		body string
	}{
		{0, `{"product":"tomate","date":"2026-12-01","quantity":120.5}`},
		{0, `{"product":"melon","date":"2027-01","quantity":12}`},
		{0, `{"product":"melon","date":"01/2027","quantity":12.5}`},
		{0, `{"product":"tomate","date":"2026-10-01","quantity":1}`},
		{0, `{"product":"kumquat","date":"2026-12-01","quantity":1}`},
		{0, `{"product":"tomate","date":"2026-12-01","quantity":-1}`},
		{0, `{"product":"tomate","date":"2026-12-01","quantity":1e300}`},
		{0, `{"product":"tomate","date":"2026-12-01","quantity":1.005,"extra":true}`},
		{1, `{"quantity":80}`},
		{1, `{"quantity":80.25,"product":"carotte","date":"2027-02-01"}`},
		{1, `{"quantity":"80"}`},
		{1, `{}`},
		{2, `{"product":"carotte","quantities":[10,20.5],"dates":["2027-03-01","2027-04"]}`},
		{2, `{"product":"laitue","quantities":[10,0.5],"dates":["2027-03-01","2027-04-01"]}`},
		{2, `{"product":"carotte","quantities":[10],"dates":["2027-03-01","2027-04-01"]}`},
		{2, `{"product":"carotte","quantities":[10,11],"dates":["2027-03-01","2027-03"]}`},
		{2, `[`},
	} {
		f.Add(s.op, []byte(s.body))
	}
	db := storetest.SQLite(f)
	s := daemontest.New(f, db) // its clock: 2026-11-20
	s.Register("shop@example.fr", "Épicerie", true)
	shop := fuzzLogin(f, s, "shop@example.fr")
	var existing struct {
		ID string `json:"_id"`
	}
	status, data := shop.send(f, "POST", "/api/needs", []byte(`{"product":"carotte","date":"2027-02-01","quantity":50}`))
	if status != http.StatusCreated || json.Unmarshal(data, &existing) != nil {
		f.Fatalf("setup: %d %s", status, data)
	}
	snapshot := func(t *testing.T) string { return storetest.SnapshotExcept(t, db, storetest.Bookkeeping...) }
	type needOut struct {
		ID       string  `json:"_id"`
		Product  string  `json:"product"`
		Date     string  `json:"date"`
		Quantity float64 `json:"quantity"`
	}
	// stored checks that the database holds the need as answered, with the
	// quantity asked.
	stored := func(t *testing.T, n needOut, product, month string, quantity float64) {
		t.Helper()
		want, ok := decimal.FromFloat(quantity)
		if !ok || n.Product != product || n.Date != month {
			t.Fatalf("answered %+v for %s %s %v", n, product, month, quantity)
		}
		var row struct {
			Product  string      `db:"product_id"`
			Month    string      `db:"month"`
			Quantity decimal.Dec `db:"quantity"`
		}
		if err := store.Get(context.Background(), db, &row, `SELECT product_id, month, quantity FROM needs WHERE id = ?`, n.ID); err != nil ||
			row.Product != product || row.Month != month || row.Quantity != want {
			t.Fatalf("need %s stored as %+v (%v), asked %s %s %v", n.ID, row, err, product, month, quantity)
		}
		// And what was stored follows the rules.
		var unit string
		if err := store.Get(context.Background(), db, &unit, `SELECT unit FROM products WHERE id = ?`, product); err != nil ||
			want < 0 || want > planning.MaxQuantity || (unit == "un" && !want.IsWhole()) || month < "2026-11-01" {
			t.Fatalf("need %s: %v %s in %s accepted (%v)", n.ID, want, unit, month, err)
		}
	}
	f.Fuzz(func(t *testing.T, op uint8, body []byte) {
		before := snapshot(t)
		var method, path string
		switch op % 3 {
		case 0:
			method, path = "POST", "/api/needs"
		case 1:
			method, path = "PUT", "/api/needs/"+existing.ID
		default:
			method, path = "POST", "/api/needs/bulk"
		}
		status, data := shop.send(t, method, path, body)
		switch {
		case status >= 500:
			t.Fatalf("%s %s %q: %d %s", method, path, body, status, data)
		case status >= 300:
			if after := snapshot(t); after != before {
				t.Fatalf("%s %s %q refused (%d) but changed the database", method, path, body, status)
			}
			return
		}
		switch op % 3 {
		case 0:
			var in struct {
				Product  string  `json:"product"`
				Date     string  `json:"date"`
				Quantity float64 `json:"quantity"`
			}
			var out needOut
			if json.Unmarshal(body, &in) != nil || json.Unmarshal(data, &out) != nil {
				t.Fatalf("accepted %q: %s", body, data)
			}
			month, err := planning.ParseMonth("date", in.Date)
			if err != nil {
				t.Fatalf("accepted the date %q: %v", in.Date, err)
			}
			stored(t, out, in.Product, month, in.Quantity)
		case 1:
			var in struct {
				Quantity float64 `json:"quantity"`
			}
			var out needOut
			if json.Unmarshal(body, &in) != nil || json.Unmarshal(data, &out) != nil || out.ID != existing.ID {
				t.Fatalf("accepted %q: %s", body, data)
			}
			stored(t, out, "carotte", "2027-02-01", in.Quantity)
		default:
			var in struct {
				Product    string    `json:"product"`
				Quantities []float64 `json:"quantities"`
				Dates      []string  `json:"dates"`
			}
			var out struct {
				Needs []needOut `json:"needs"`
			}
			if json.Unmarshal(body, &in) != nil || json.Unmarshal(data, &out) != nil || len(in.Dates) != len(in.Quantities) {
				t.Fatalf("accepted %q: %s", body, data)
			}
			asked := map[string]float64{}
			for i, d := range in.Dates {
				month, err := planning.ParseMonth("date", d)
				if err != nil {
					t.Fatalf("accepted the date %q: %v", d, err)
				}
				asked[month] = in.Quantities[i]
			}
			for _, n := range out.Needs {
				q, ok := asked[n.Date]
				if !ok {
					t.Fatalf("bulk %q answered a need for %s", body, n.Date)
				}
				stored(t, n, in.Product, n.Date, q)
			}
		}
	})
}

// FuzzDeliveryPayload sends arbitrary bodies to the shop's change of a
// planned delivery (date, sent quantities) and to the producer's claim on a
// done one (signed quantity, type, comment per line), on a real daemon and
// database. No body gets a 5xx. A refused one changes nothing. An accepted
// one stored exactly what it asked: the date (trimmed), the sent
// quantities, and for the claim, per line, the quantity, type and trimmed
// comment — lines left out or claimed at 0 carry no claim; and what it
// stored follows the rules (whole pieces, a claimed line billing between
// nothing and what was ordered, a known claim type).
func FuzzDeliveryPayload(f *testing.F) {
	for _, s := range []struct {
		op   uint8
		body string
	}{
		{0, `{"date":"2026-11-27"}`},
		{0, `{"date":" 2026-11-30 ","deliveryLines":[{"_id":"KG","quantitySent":12.5},{"_id":"UN","quantitySent":3}]}`},
		{0, `{"deliveryLines":[{"_id":"UN","quantitySent":2.5}]}`},
		{0, `{"deliveryLines":[{"_id":"KG","quantitySent":1},{"_id":"KG","quantitySent":2}]}`},
		{0, `{"date":"2026-11-20"}`},
		{0, `{"date":"2026-12-01"}`},
		{0, `{"deliveryLines":[{"_id":"autre","quantitySent":1}]}`},
		{0, `{"deliveryLines":[{"_id":"KG","quantitySent":-1}]}`},
		{1, `{"deliveryLines":[{"_id":"KG","quantityClaimed":-3,"claimType":"quality","claimComment":" Caisse abîmée "}]}`},
		{1, `{"deliveryLines":[{"_id":"KG","quantityClaimed":-2.5,"claimType":"quantity"},{"_id":"UN","quantityClaimed":1,"claimType":"quality"}]}`},
		{1, `{"deliveryLines":[{"_id":"UN","quantityClaimed":-13,"claimType":"quality"}]}`},
		{1, `{"deliveryLines":[{"_id":"UN","quantityClaimed":0.5,"claimType":"quality"}]}`},
		{1, `{"deliveryLines":[{"_id":"KG","quantityClaimed":-3}]}`},
		{1, `{"deliveryLines":[{"_id":"KG","quantityClaimed":0}]}`},
		{1, `{"deliveryLines":[]}`},
		{1, `{"deliveryLines":[{"_id":"KG","quantityClaimed":999999999,"claimType":"quantity"}]}`},
		{1, `{"deliveryLines":[{"_id":"KG","quantityClaimed":2,"claimType":"quantity"},{"_id":"UN","quantityClaimed":-12,"claimType":"quality"}]}`},
		{1, `{"deliveryLines":[{"_id":"KG","quantityClaimed":-12345.675,"claimType":"quality"}]}`},
		{0, `{"deliveryLines":[{"_id":"KG","quantitySent":99999.995},{"_id":"UN","quantitySent":5000.004}]}`},
	} {
		f.Add(s.op, []byte(s.body))
	}
	db := storetest.SQLite(f)
	s := daemontest.New(f, db) // its clock: Friday 2026-11-20 10:00
	_, shopID := s.Register("shop@example.fr", "Épicerie", true)
	_, farmID := s.Producer("ferme@example.fr", "Ferme")
	shop, farm := fuzzLogin(f, s, "shop@example.fr"), fuzzLogin(f, s, "ferme@example.fr")
	w := tradetest.Between(f, db, farmID, shopID)
	order := w.Order(w.Farm, w.Shop, "2026-11-01")
	planned := w.Delivery(order, "2026-11-26", orders.Planned,
		tradetest.L{Product: "tomate", Price: 250, Expected: 1000}, tradetest.L{Product: "laitue", Price: 90, Expected: 1200})
	done := w.Delivery(order, "2026-11-18", orders.Done,
		tradetest.L{Product: "tomate", Price: 250, Expected: 1000, Sent: tradetest.Dec(800)},
		tradetest.L{Product: "laitue", Price: 90, Expected: 1200, Sent: tradetest.Dec(1200)})
	ids := map[string][2]string{ // the placeholders of the seeds: the kg and the pieces line
		planned: {w.Line(planned, "tomate"), w.Line(planned, "laitue")},
		done:    {w.Line(done, "tomate"), w.Line(done, "laitue")},
	}
	snapshot := func(t *testing.T) string { return storetest.SnapshotExcept(t, db, storetest.Bookkeeping...) }
	type lineRow struct {
		ID       string         `db:"id"`
		Expected decimal.Dec    `db:"quantity_expected"`
		Sent     sql.NullInt64  `db:"quantity_sent"`
		Claimed  decimal.Dec    `db:"quantity_claimed"`
		Kind     string         `db:"claim_type"`
		Comment  string         `db:"claim_comment"`
		Date     sql.NullString `db:"date"`
		Unit     string         `db:"unit"`
	}
	linesOf := func(t *testing.T, deliveryID string) map[string]lineRow {
		var rows []lineRow
		if err := store.Select(context.Background(), db, &rows, `SELECT l.id, l.quantity_expected, l.quantity_sent, l.quantity_claimed, l.claim_type,
			l.claim_comment, d.date, p.unit FROM delivery_lines l JOIN deliveries d ON d.id = l.delivery_id
			JOIN products p ON p.id = l.product_id WHERE l.delivery_id = ?`, deliveryID); err != nil {
			t.Fatal(err)
		}
		out := map[string]lineRow{}
		for _, r := range rows {
			out[r.ID] = r
		}
		return out
	}
	f.Fuzz(func(t *testing.T, op uint8, body []byte) {
		target, c, kind := planned, shop, "update"
		if op%2 == 1 {
			target, c, kind = done, farm, "claim"
		}
		body = bytes.ReplaceAll(bytes.ReplaceAll(body, []byte(`"KG"`), []byte(`"`+ids[target][0]+`"`)), []byte(`"UN"`), []byte(`"`+ids[target][1]+`"`))
		before := snapshot(t)
		status, data := c.send(t, "PUT", "/api/deliveries/"+kind+"/"+order+"/"+target, body)
		switch {
		case status >= 500:
			t.Fatalf("%s %q: %d %s", kind, body, status, data)
		case status >= 300:
			if after := snapshot(t); after != before {
				t.Fatalf("%s %q refused (%d) but changed the database", kind, body, status)
			}
			return
		}
		lines := linesOf(t, target)
		if kind == "update" {
			var in struct {
				Date  *string `json:"date"`
				Lines []struct {
					ID   string   `json:"_id"`
					Sent *float64 `json:"quantitySent"`
				} `json:"deliveryLines"`
			}
			if err := json.Unmarshal(body, &in); err != nil {
				t.Fatalf("accepted %q: %v", body, err)
			}
			for _, l := range lines {
				if in.Date != nil && l.Date.String != strings.TrimSpace(*in.Date) {
					t.Fatalf("date %q stored as %q", *in.Date, l.Date.String)
				}
			}
			for _, l := range in.Lines {
				if l.Sent == nil {
					continue
				}
				want, ok := decimal.FromFloat(*l.Sent)
				if got := lines[l.ID]; !ok || !got.Sent.Valid || decimal.Dec(got.Sent.Int64) != want || want < 0 || (got.Unit == "un" && !want.IsWhole()) {
					t.Fatalf("line %s: sent %v stored as %+v", l.ID, *l.Sent, got)
				}
			}
			return
		}
		var in struct {
			Lines []struct {
				ID      string   `json:"_id"`
				Claimed *float64 `json:"quantityClaimed"`
				Kind    *string  `json:"claimType"`
				Comment *string  `json:"claimComment"`
			} `json:"deliveryLines"`
		}
		if err := json.Unmarshal(body, &in); err != nil {
			t.Fatalf("accepted %q: %v", body, err)
		}
		claimed := map[string]bool{}
		for _, l := range in.Lines {
			got := lines[l.ID]
			if l.Claimed == nil {
				continue
			}
			want, ok := decimal.FromFloat(*l.Claimed)
			if !ok {
				t.Fatalf("line %s: the claim %v was accepted", l.ID, *l.Claimed)
			}
			if want == 0 {
				continue
			}
			comment := ""
			if l.Comment != nil {
				comment = strings.TrimSpace(*l.Comment)
			}
			sent := decimal.Dec(got.Sent.Int64)
			if got.Claimed != want || l.Kind == nil || got.Kind != *l.Kind || got.Comment != comment || sent+want < 0 || sent+want > max(got.Expected, sent) ||
				(got.Unit == "un" && !want.IsWhole()) || (got.Kind != orders.ClaimQuality && got.Kind != orders.ClaimQuantity) {
				t.Fatalf("line %s: claim %v %q %q stored as %+v", l.ID, *l.Claimed, deref(l.Kind), deref(l.Comment), got)
			}
			claimed[l.ID] = true
		}
		if len(claimed) == 0 {
			t.Fatalf("claim %q accepted without a quantity", body)
		}
		for id, got := range lines {
			if !claimed[id] && (got.Claimed != 0 || got.Kind != "" || got.Comment != "") {
				t.Fatalf("line %s not claimed but stored as %+v", id, got)
			}
		}
	})
}
