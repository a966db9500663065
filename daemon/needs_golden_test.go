package daemon_test

import (
	"bytes"
	"context"
	"encoding/json"
	"flag"
	"fmt"
	"math/rand/v2"
	"net/http"
	"os"
	"path/filepath"
	"sort"
	"strings"
	"testing"
	"time"

	"github.com/jmoiron/sqlx"

	"primeur/core/store"
	"primeur/core/store/storetest"
	"primeur/daemon/daemontest"
)

var updateNeedsAnswers = flag.Bool("update-needs-answers", false, "rewrite testdata/needs-answers.golden from the answers of the code as it is")

// needsAnswersGolden holds the answers of GET /api/needs on the world of
// TestNeedsAnswersUnchanged, byte for byte, as the handler wrote them
// before issue 20's work on its speed (written at 8451d09).
const needsAnswersGolden = "testdata/needs-answers.golden"

// TestNeedsAnswersUnchanged pins the answers of GET /api/needs: on a
// seeded world of three shops and four producers (needs of kg and piece
// products over seven months, none to four proposals each: commitments,
// pending and rejected proposals, corrections beside a commitment, several
// producers on a need, proposals made at the same instant), each request
// below answers byte for byte what the golden file holds. The ids of the
// users, which registration draws at random, are written as their names;
// every other id and instant is fixed. Both engines give the same bytes.
func TestNeedsAnswersUnchanged(t *testing.T) {
	t.Parallel()
	want, err := os.ReadFile(needsAnswersGolden)
	if err != nil && !*updateNeedsAnswers {
		t.Fatal(err)
	}
	storetest.Each(t, func(t *testing.T, db *store.DB) {
		got := needsAnswers(t, db)
		if *updateNeedsAnswers {
			if err := os.WriteFile(needsAnswersGolden, got, 0o644); err != nil {
				t.Fatal(err)
			}
			want = got
			return
		}
		if !bytes.Equal(got, want) {
			path := filepath.Join(os.TempDir(), strings.ReplaceAll(t.Name(), "/", "-")+".got")
			_ = os.WriteFile(path, got, 0o644) // kept for the comparison
			t.Fatalf("the answers of GET /api/needs changed: compare %s with %s", path, needsAnswersGolden)
		}
	})
}

// needsAnswers seeds the world and returns the answers, one block per
// request: a line naming the user and the path, then the body.
func needsAnswers(t *testing.T, db *store.DB) []byte {
	t.Helper()
	s := daemontest.New(t, db)
	s.Clock.Set(time.Date(2026, 11, 18, 9, 0, 0, 0, s.Config.Location))
	names := map[string]string{} // user id → name in the golden file
	clients := map[string]*daemontest.Client{}
	ids := map[string]string{}
	for _, shop := range []string{"shop1", "shop2", "shop3"} {
		c, id := s.Register(shop+"@example.fr", shop, true)
		clients[shop], ids[shop], names[id] = c, id, shop
	}
	for _, farm := range []string{"farm1", "farm2", "farm3", "farm4"} {
		c, id := s.Producer(farm+"@example.fr", farm)
		clients[farm], ids[farm], names[id] = c, id, farm
	}
	seedNeedsWorld(t, db, []string{ids["shop1"], ids["shop2"], ids["shop3"]},
		[]string{ids["farm1"], ids["farm2"], ids["farm3"]}) // farm4 trades nothing

	requests := []struct{ user, path string }{
		{"shop1", "/api/needs"},
		{"shop1", "/api/needs?from=2026-10"},
		{"shop1", "/api/needs?to=2026-11-01"},
		{"shop1", "/api/needs?from=2026-10-01&to=2027-01"},
		{"shop2", "/api/needs"},
		{"shop3", "/api/needs?from=2027-02"},
		{"farm1", "/api/needs"},
		{"farm1", "/api/needs?from=2026-12"},
		{"farm1", "/api/needs?distributor=" + ids["shop1"]},
		{"farm1", "/api/needs?distributor=" + ids["shop2"] + "&from=2026-10&to=2026-12"},
		{"farm2", "/api/needs"},
		{"farm3", "/api/needs?distributor=" + ids["shop3"]},
		{"farm4", "/api/needs"},
		{"farm4", "/api/needs?distributor=" + ids["shop1"]},
	}
	var out bytes.Buffer
	for _, r := range requests {
		res := clients[r.user].Do(http.MethodGet, r.path, nil).Expect(t, http.StatusOK)
		body := string(tiesInOrder(t, res.Body))
		path := r.path
		for id, name := range names {
			body = strings.ReplaceAll(body, id, name)
			path = strings.ReplaceAll(path, id, name)
		}
		fmt.Fprintf(&out, "=== %s GET %s\n%s\n", r.user, path, body)
	}
	return out.Bytes()
}

// tiesInOrder returns a list of needs with the needs of the same month
// and product (a producer's needs of several shops) in the order of their
// ids: the answer orders by month then product and leaves such ties in
// whatever order the engine reads them (SQLite and PostgreSQL differ).
// Each need's bytes are kept as they are; the list must be ordered by
// month then product.
func tiesInOrder(t *testing.T, body []byte) []byte {
	t.Helper()
	var list []json.RawMessage
	if err := json.Unmarshal(body, &list); err != nil {
		t.Fatalf("%v: %s", err, body)
	}
	type key struct{ Date, Product, ID string }
	keys := make([]key, len(list))
	for i, raw := range list {
		var k struct {
			Date    string `json:"date"`
			Product string `json:"product"`
			ID      string `json:"_id"`
		}
		if err := json.Unmarshal(raw, &k); err != nil {
			t.Fatal(err)
		}
		keys[i] = key{k.Date, k.Product, k.ID}
		if i > 0 && (keys[i-1].Date > k.Date || keys[i-1].Date == k.Date && keys[i-1].Product > k.Product) {
			t.Fatalf("need %s after %s: not ordered by month then product", k.ID, keys[i-1].ID)
		}
	}
	order := make([]int, len(list))
	for i := range order {
		order[i] = i
	}
	sort.SliceStable(order, func(a, b int) bool {
		ka, kb := keys[order[a]], keys[order[b]]
		if ka.Date != kb.Date {
			return ka.Date < kb.Date
		}
		if ka.Product != kb.Product {
			return ka.Product < kb.Product
		}
		return ka.ID < kb.ID
	})
	out := []byte{'['}
	for i, j := range order {
		if i > 0 {
			out = append(out, ',')
		}
		out = append(out, list[j]...)
	}
	return append(out, ']')
}

// seedNeedsWorld writes the needs and proposals of the world with fixed
// ids and instants, drawn from a fixed seed.
func seedNeedsWorld(t *testing.T, db *store.DB, shops, farms []string) {
	t.Helper()
	ctx := context.Background()
	rng := rand.New(rand.NewPCG(20, 2026))
	products := []struct {
		id    string
		piece bool
	}{
		{"pomme", false}, {"poire", false}, {"carotte", false}, {"salade", true},
		{"oeuf", true}, {"potiron", true}, {"oignon", false}, {"chou", true},
	}
	months := []string{"2026-08-01", "2026-09-01", "2026-10-01", "2026-11-01", "2026-12-01", "2027-01-01", "2027-02-01"}
	base := time.Date(2026, 7, 1, 8, 0, 0, 0, time.UTC).UnixMilli()
	var need, proposal int
	err := db.Tx(ctx, func(tx *sqlx.Tx) error {
		for si, shop := range shops {
			for pi, p := range products {
				if _, err := store.Exec(ctx, tx, `INSERT INTO products (id, name, name_key, unit, share, ref_price, coefs)
					VALUES (?, ?, ?, ?, 10, 150, '1,1,1,1,1,1,1,1,1,1,1,1') ON CONFLICT (id) DO NOTHING`,
					"golden-"+p.id, "Golden "+p.id, "golden "+p.id, map[bool]string{false: "kg", true: "un"}[p.piece]); err != nil {
					return err
				}
				for mi, month := range months {
					if (si+pi+mi)%5 == 4 {
						continue // a gap in the plan
					}
					need++
					id := fmt.Sprintf("need-%04d", need)
					qty := int64(rng.IntN(500)+1) * 100
					if !p.piece {
						qty += int64(rng.IntN(100))
					}
					created := base + int64(need)*60_000
					updated := created + int64(rng.IntN(3))*86_400_000
					if _, err := store.Exec(ctx, tx, `INSERT INTO needs (id, distributor_id, product_id, month, quantity, created_at, updated_at)
						VALUES (?, ?, ?, ?, ?, ?, ?)`, id, shop, "golden-"+p.id, month, qty, created, updated); err != nil {
						return err
					}
					for _, farm := range farms {
						kinds := proposalKinds[rng.IntN(len(proposalKinds))]
						for _, k := range kinds {
							proposal++
							at := created + int64(proposal/3)*1000 // every three share an instant
							q := qty * int64(rng.IntN(60)+10) / 100
							if p.piece {
								q -= q % 100
							}
							if _, err := store.Exec(ctx, tx, `INSERT INTO proposals (id, need_id, producer_id, status, origin, quantity, price, created_at, updated_at)
								VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?)`, fmt.Sprintf("prop-%05d-%d", 99999-proposal, proposal%7), id, farm,
								k.status, k.origin, q, int64(rng.IntN(900)+50), at, at+int64(rng.IntN(5))*3_600_000); err != nil {
								return err
							}
						}
					}
				}
			}
		}
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
}

// proposalKind is one proposal of a producer on a need.
type proposalKind struct{ status, origin string }

// proposalKinds are what one producer may have on a need: nothing (most
// often), a pending proposal from either side, a refused one, a
// commitment, or a commitment with a pending correction or a refused one.
var proposalKinds = [][]proposalKind{
	nil, nil, nil, nil,
	{{"proposed", "producer"}},
	{{"proposed", "distributor"}},
	{{"rejected", "producer"}},
	{{"accepted", "producer"}},
	{{"accepted", "distributor"}},
	{{"accepted", "producer"}, {"proposed", "producer"}},
	{{"accepted", "distributor"}, {"rejected", "producer"}},
}
