package daemon_test

import (
	"net/http"
	"strings"
	"testing"

	"primeur/core/store/storetest"
	"primeur/daemon/daemontest"
)

// TestHostileInputs sends what a careless or malicious client sends: every
// case answers 4xx, the database is unchanged, and the daemon stays healthy.
func TestHostileInputs(t *testing.T) {
	t.Parallel()
	db := storetest.SQLite(t)
	s := daemontest.New(t, db)
	shop, _ := s.Register("shop@example.fr", "Épicerie", true)
	var need struct {
		ID string `json:"_id"`
	}
	shop.Do("POST", "/api/needs", map[string]any{"product": "tomate", "date": "2026-12", "quantity": 10}).Expect(t, 201).JSON(t, &need)
	deep := strings.Repeat("[", 100000) + strings.Repeat("]", 100000)
	huge := `{"product":"tomate","date":"2027-01","quantity":1,"x":"` + strings.Repeat("a", 3<<20) + `"}`

	tests := []struct {
		name        string
		method      string
		path        string
		contentType string
		body        string
	}{
		{"text/plain body", "POST", "/api/needs", "text/plain", `{"product":"tomate","date":"2027-01","quantity":1}`},
		{"xml body", "POST", "/api/needs", "application/xml", `<need><product>tomate</product></need>`},
		{"form body", "POST", "/api/needs", "application/x-www-form-urlencoded", `product=tomate&date=2027-01&quantity=1`},
		{"multipart on a JSON route", "POST", "/api/needs", "multipart/form-data; boundary=x", "--x--"},
		{"huge body", "POST", "/api/needs", "application/json", huge},
		{"deep JSON", "POST", "/api/needs", "application/json", deep},
		{"not JSON", "POST", "/api/needs", "application/json", `{"product":`},
		{"JSON array", "POST", "/api/needs", "application/json", `[1,2,3]`},
		{"unknown field", "POST", "/api/needs", "application/json", `{"product":"tomate","date":"2027-01","quantity":1,"distributor":"someone"}`},
		{"NaN", "POST", "/api/needs", "application/json", `{"product":"tomate","date":"2027-01","quantity":NaN}`},
		{"Infinity", "POST", "/api/needs", "application/json", `{"product":"tomate","date":"2027-01","quantity":Infinity}`},
		{"overflowing number", "POST", "/api/needs", "application/json", `{"product":"tomate","date":"2027-01","quantity":1e999}`},
		{"huge number", "POST", "/api/needs", "application/json", `{"product":"tomate","date":"2027-01","quantity":1e300}`},
		{"negative", "POST", "/api/needs", "application/json", `{"product":"tomate","date":"2027-01","quantity":-5}`},
		{"negative zero", "POST", "/api/needs", "application/json", `{"product":"tomate","date":"2027-01","quantity":-0}`},
		{"number as string", "POST", "/api/needs", "application/json", `{"product":"tomate","date":"2027-01","quantity":"5"}`},
		{"null quantity", "PUT", "/api/needs/" + need.ID, "application/json", `{"quantity":null}`},
		{"SQL in product", "POST", "/api/needs", "application/json", `{"product":"tomate' OR '1'='1","date":"2027-01","quantity":1}`},
		{"SQL in month", "POST", "/api/needs", "application/json", `{"product":"tomate","date":"2027-01'; DROP TABLE needs;--","quantity":1}`},
		{"script in product", "POST", "/api/needs", "application/json", `{"product":"<script>alert(1)</script>","date":"2027-01","quantity":1}`},
		{"SQL in path id", "DELETE", "/api/needs/x'%20OR%20'1'='1", "", ""},
		{"duplicate keys", "PUT", "/api/needs/" + need.ID, "application/json", `{"quantity":5,"quantity":-5}`},
		{"bulk of 10000 months", "POST", "/api/needs/bulk", "application/json", `{"product":"tomate","quantities":[` + strings.TrimSuffix(strings.Repeat("1,", 10000), ",") + `],"dates":[]}`},
		{"empty company name", "PUT", "/api/user", "application/json", `{"name":"  "}`},
		{"control characters in a code", "PUT", "/api/user", "application/json", `{"siret":"1234567890123\u0000"}`},
		{"dot segments", "GET", "/public/../etc/passwd", "", ""},
		{"encoded dot segments", "GET", "/public/other/%2e%2e/%2e%2e/etc/passwd", "", ""},
		{"print traversal", "GET", "/print/delivery/..%2f..%2fetc/passwd", "", ""},
		{"double slash", "GET", "//etc/passwd", "", ""},
		{"NUL byte", "GET", "/public/other/products.csv%00.txt", "", ""},
		{"backslash", "GET", "/public/other/..%5c..%5cetc%5cpasswd", "", ""},
		{"unknown public file", "GET", "/public/other/secret.db", "", ""},
		{"unknown API route", "GET", "/api/../../etc/passwd", "", ""},
		{"method not allowed on the UI", "POST", "/dis/needs", "application/json", `{}`},
		{"JSON on the upload route", "POST", "/api/needs-loader", "application/json", `{"importfile":"x"}`},
		{"truncated upload", "POST", "/api/needs-loader", "multipart/form-data; boundary=x", "--x\r\nContent-Disposition: form-data; name=\"importfile\"; filename=\"a.xlsx\"\r\n\r\nPK"},
		{"upload of a zip that is no workbook", "POST", "/api/needs-loader", "multipart/form-data; boundary=x", "--x\r\nContent-Disposition: form-data; name=\"importfile\"; filename=\"a.xlsx\"\r\n\r\nPK\x05\x06" + strings.Repeat("\x00", 18) + "\r\n--x--\r\n"},
		{"standard import of NaN", "POST", "/api/needs/importstd/commit", "application/json", `{"turnover":NaN,"months":["2027-01"]}`},
		{"standard import of 10000 months", "POST", "/api/needs/importstd/commit", "application/json", `{"turnover":1000,"months":[` + strings.TrimSuffix(strings.Repeat(`"2027-01",`, 10000), ",") + `]}`},
		{"contribution NaN", "PUT", "/api/rewards/contribution", "application/json", `{"amount":NaN}`},
		{"contribution overflowing", "PUT", "/api/rewards/contribution", "application/json", `{"amount":1e999}`},
		{"contribution as text", "PUT", "/api/rewards/contribution", "application/json", `{"amount":"25 €"}`},
		{"contribution for someone else", "PUT", "/api/rewards/contribution", "application/json", `{"amount":25,"distributor":"someone"}`},
		{"contribution array", "PUT", "/api/rewards/contribution", "application/json", `[25]`},
	}
	before := storetest.SnapshotExcept(t, db, storetest.Bookkeeping...)
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			req, err := http.NewRequest(tt.method, s.URL+tt.path, strings.NewReader(tt.body))
			if err != nil {
				t.Fatal(err)
			}
			req.URL.Opaque = "//" + req.URL.Host + tt.path // send the path as written, dots and all
			if tt.contentType != "" {
				req.Header.Set("Content-Type", tt.contentType)
			}
			res := shop.Raw(req)
			if res.Status < 400 || res.Status >= 500 {
				t.Fatalf("%s %s: %d, want 4xx: %.300s", tt.method, tt.path, res.Status, res.Body)
			}
		})
	}
	if after := storetest.SnapshotExcept(t, db, storetest.Bookkeeping...); after != before {
		t.Fatalf("a hostile request changed the database:\n%s", storetest.Changes(before, after))
	}
	s.Client().Do("GET", "/healthz", nil).Expect(t, 200)
	shop.Do("GET", "/api/user", nil).Expect(t, 200)
}

// TestTextIsStoredVerbatim: SQL and markup in free text are data, stored
// and returned as typed, never interpreted.
func TestTextIsStoredVerbatim(t *testing.T) {
	t.Parallel()
	db := storetest.SQLite(t)
	s := daemontest.New(t, db)
	name := `Robert'); DROP TABLE users;-- <script>alert("x")</script>`
	c, _ := s.Register("bobby@example.fr", name, true)
	var load struct {
		User struct{ Name string }
	}
	c.Do("GET", "/api/user", nil).Expect(t, 200).JSON(t, &load)
	if load.User.Name != name {
		t.Fatalf("name = %q", load.User.Name)
	}
	res := c.Do("GET", "/api/user", nil)
	if strings.Contains(string(res.Body), "<script>") && res.Header.Get("Content-Type") != "application/json" {
		t.Fatal("markup served as something else than JSON")
	}
	var n int
	if err := db.Get(&n, `SELECT COUNT(*) FROM users`); err != nil || n != 1 {
		t.Fatalf("users table: %d rows, %v", n, err)
	}
}
