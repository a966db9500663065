package daemon_test

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"net/http"
	"net/http/httptest"
	"sort"
	"testing"
	"time"

	"github.com/jmoiron/sqlx"

	"primeur/core"
	"primeur/core/accounts"
	"primeur/core/activity"
	"primeur/core/billing"
	"primeur/core/calendar"
	"primeur/core/catalog"
	"primeur/core/decimal"
	"primeur/core/delivery"
	"primeur/core/orders"
	"primeur/core/planning"
	"primeur/core/store"
	"primeur/core/trade/tradetest"
	"primeur/daemon/daemontest"
)

// loadShop is a shop of the user load's world: how many products it plans
// (the largest shares first) and its annual turnover in euros, which sizes
// its needs (planning.Standard).
type loadShop struct {
	email    string
	products int
	turnover float64
}

// The shops of tools/loadbench's region 0 whose loads `make bench`
// measures: the typical shop (60 products, a 1.5 MB user load, about
// 4,300 delivery lines a year) and the largest (150 products, 3.6 MB,
// 12,500 lines).
var (
	typicalShop = loadShop{email: "magasin-typique@bench.primeur.fr", products: 60, turnover: 150_000}
	largestShop = loadShop{email: "magasin-grand@bench.primeur.fr", products: 150, turnover: 900_000}
)

// The world's shape, as tools/loadbench's (world.go): 90 synthetic products
// beside the catalogue's 60, 20 specialities with a farm each, needs from
// 12 months back to 11 ahead, commitments up to next month.
const (
	loadSynthetic   = 90
	loadFarms       = 20
	loadMonthsBack  = 12
	loadMonthsAhead = 11
)

// seedUserLoads writes, in one transaction through accounts.InsertAll and
// the operations (tradetest.Play, billing.Issue), a year of trade of each
// shop with the 20 farms it buys from, shaped as tools/loadbench seeds its
// region 0 — needs by planning.Standard, producers' proposals and the
// shops' acceptances, orders planned on the farms' delivery days, done up
// to the lock (some short, cancelled or claimed), planned after, pending
// proposals on the next months, the invoices of the months over and a
// credit note for each accepted claim on an invoiced order —, at now.
// Every account's password is daemontest.Password.
func seedUserLoads(tb testing.TB, db *store.DB, now time.Time, rules delivery.Rules, shops ...loadShop) {
	tb.Helper()
	ctx := context.Background()
	hash, err := accounts.HashPassword(ctx, daemontest.Password)
	if err != nil {
		tb.Fatal(err)
	}
	err = db.Tx(ctx, func(tx *sqlx.Tx) error {
		products, err := loadProducts(ctx, tx)
		if err != nil {
			return err
		}
		w := &loadWorld{now: now, rules: rules, products: products, index: map[string]int{}}
		for i, p := range products {
			w.index[p.ID] = i
		}
		for i := -loadMonthsBack; i <= loadMonthsAhead; i++ {
			w.months = append(w.months, calendar.MonthOf(now).AddMonths(i))
		}
		w.current = calendar.MonthOf(now).String()
		w.locked = rules.LockedThrough(now)
		created := now.AddDate(0, -loadMonthsBack-2, 0)
		var users []accounts.User
		for k, s := range shops {
			u := loadParty(k, created)
			u.ID, u.Type, u.Email, u.EmailKey = core.NewID(), accounts.Distributor, s.email, accounts.EmailKey(s.email)
			u.Name, u.APE, u.Capital, u.PasswordHash = fmt.Sprintf("Épicerie d'Annecy %d", k+1), "4721Z", "20000", hash
			u.DeliveryDays = "0000000"
			w.shops = append(w.shops, u)
		}
		for j := range loadFarms {
			u := loadParty(100+j, created)
			email := fmt.Sprintf("ferme-%02d@bench.primeur.fr", j)
			u.ID, u.Type, u.Email, u.EmailKey = core.NewID(), accounts.Producer, email, accounts.EmailKey(email)
			u.Name, u.APE, u.Capital, u.PasswordHash = fmt.Sprintf("Ferme des Prés %d", j+1), "0113Z", "7500", hash
			days := []byte("0000000")
			days[j%5] = '1'
			if j%3 == 0 {
				days = []byte("0100100") // Tuesday and Friday
			}
			if j%7 == 3 {
				u.TVAIntracom = "" // franchise en base
			}
			u.DeliveryDays = string(days)
			w.farms = append(w.farms, u)
		}
		users = append(append(users, w.shops...), w.farms...)
		if err := accounts.InsertAll(ctx, tx, users); err != nil {
			return err
		}
		var batch tradetest.Batch
		var events []activity.Event
		for k, s := range shops {
			events = append(events, w.shop(k, s, &batch))
		}
		written, err := tradetest.Play(ctx, tx, rules, batch)
		if err != nil {
			return err
		}
		if err := activity.RecordAll(ctx, tx, events); err != nil {
			return err
		}
		return w.bill(ctx, tx, written)
	})
	if err != nil {
		tb.Fatal(err)
	}
}

// loadWorld is what the seeding of the shops shares.
type loadWorld struct {
	now      time.Time
	rules    delivery.Rules
	products []catalog.Product // the catalogue's by share, then the synthetic ones
	index    map[string]int
	months   []calendar.Month
	current  string
	locked   string
	shops    []accounts.User
	farms    []accounts.User
}

// loadProducts adds the synthetic products to the catalogue and returns
// every product, the catalogue's by decreasing share first.
func loadProducts(ctx context.Context, q store.Q) ([]catalog.Product, error) {
	base, err := catalog.All(ctx, q)
	if err != nil {
		return nil, err
	}
	sort.SliceStable(base, func(a, b int) bool {
		if base[a].Share != base[b].Share {
			return base[a].Share > base[b].Share
		}
		return base[a].ID < base[b].ID
	})
	synthetic := make([]catalog.Product, loadSynthetic)
	for i := range synthetic {
		name := fmt.Sprintf("Produit local %03d", i+1)
		p := catalog.Product{
			ID: fmt.Sprintf("local-%03d", i+1), Name: name, NameKey: catalog.NameKey(name), Unit: catalog.Kg,
			Share: 15, RefPrice: decimal.Dec(150 + (i*37)%500), CoefsRaw: base[i%len(base)].CoefsRaw, Coefs: base[i%len(base)].Coefs,
		}
		if i%4 == 0 {
			p.Unit = catalog.Piece
		}
		synthetic[i] = p
	}
	err = store.Insert(ctx, q, "products", []string{"id", "name", "name_key", "unit", "share", "ref_price", "coefs"}, len(synthetic),
		func(i int, v []any) {
			p := synthetic[i]
			v[0], v[1], v[2], v[3], v[4], v[5], v[6] = p.ID, p.Name, p.NameKey, p.Unit, p.Share, int64(p.RefPrice), p.CoefsRaw
		})
	return append(base, synthetic...), err
}

// loadParty is the identity of account n, near Annecy.
func loadParty(n int, created time.Time) accounts.User {
	h := loadMix(n)
	siren := accounts.LuhnComplete(fmt.Sprintf("%08d", 70_000_000+n))
	ms := created.UnixMilli()
	return accounts.User{
		SIRET: accounts.LuhnComplete(siren + "0001"), TVAIntracom: accounts.FrenchVAT(siren), BIC: "AGRIFRPP881", IBAN: "FR7630006000011234567890189",
		Tel: fmt.Sprintf("04%08d", 50_000_000+n), AddressLine1: fmt.Sprintf("%d rue du Marché", 1+n%60), AddressLine2: "74000 Annecy",
		Latitude:  fmt.Sprintf("%.4f", 45.8992+0.3*(loadFrac(h)-0.5)),
		Longitude: fmt.Sprintf("%.4f", 6.1294+0.4*(loadFrac(loadMix(n, 1))-0.5)),
		Legal:     "SARL au capital de 20 000 €, RCS Annecy", CreatedAt: ms, UpdatedAt: ms,
	}
}

// shop adds shop k's needs, commitments and pending proposals to the
// batch, as tools/loadbench does, and returns the event of its needs'
// import.
func (w *loadWorld) shop(k int, s loadShop, batch *tradetest.Batch) activity.Event {
	shop := w.shops[k]
	type orderKey struct{ farm, month int }
	byOrder := map[orderKey][]tradetest.Commitment{}
	firstAt := map[orderKey]time.Time{}
	needsAt := w.now.AddDate(0, -loadMonthsBack-1, -7)
	count := 0
	for _, line := range planning.Standard(w.products[:s.products], s.turnover, w.months) {
		i := w.index[line.Product.ID]
		j := i % loadFarms
		farm := w.farms[j]
		for mi, qty := range line.Quantities {
			if qty <= 0 {
				continue
			}
			month := w.months[mi].String()
			batch.Needs = append(batch.Needs, planning.Need{
				ID: core.NewID(), DistributorID: shop.ID, ProductID: line.Product.ID, Month: month,
				Quantity: qty, CreatedAt: needsAt.UnixMilli(), UpdatedAt: needsAt.UnixMilli(),
			})
			count++
			offset := mi - loadMonthsBack
			commit := offset <= 0 || (offset == 1 && i%3 == 0)
			pending := (offset == 1 && i%3 == 1) || (offset == 2 && i%4 == 0)
			if !commit && !pending {
				continue
			}
			h := loadMix(k, i, mi)
			share := 0.3
			if commit {
				share = 0.55 + 0.4*loadFrac(h)
			}
			quantity := loadPart(qty, share, line.Product.Unit)
			f := (0.88 + 0.24*loadFrac(loadMix(j, i))) * (0.98 + 0.04*loadFrac(loadMix(j, i, mi)))
			price := max(1, decimal.Dec(float64(line.Product.RefPrice)*f+0.5))
			at := w.monthStart(month).AddDate(0, -1, 17).Add(8*time.Hour + time.Duration((k*7+j*3)%40)*15*time.Minute)
			if latest := w.now.Add(-72 * time.Hour); at.After(latest) {
				at = latest
			}
			if !commit {
				batch.Pending = append(batch.Pending, tradetest.Pending{
					ProducerID: farm.ID, ShopID: shop.ID, ProductID: line.Product.ID, Month: month, Quantity: quantity, Price: price, At: at,
				})
				continue
			}
			key := orderKey{j, mi}
			byOrder[key] = append(byOrder[key], tradetest.Commitment{ProductID: line.Product.ID, Quantity: quantity, Price: price})
			if first, ok := firstAt[key]; !ok || at.Before(first) {
				firstAt[key] = at
			}
		}
	}
	keys := make([]orderKey, 0, len(byOrder))
	for key := range byOrder {
		keys = append(keys, key)
	}
	sort.Slice(keys, func(a, b int) bool {
		if keys[a].month != keys[b].month {
			return keys[a].month < keys[b].month
		}
		return keys[a].farm < keys[b].farm
	})
	for _, key := range keys {
		month := w.months[key.month].String()
		batch.Agreements = append(batch.Agreements, tradetest.Agreement{
			ProducerID: w.farms[key.farm].ID, ShopID: shop.ID, Month: month, ProposedAt: firstAt[key], At: firstAt[key].Add(2 * time.Hour),
			Commitments: byOrder[key],
			Outcome: func(i int, d orders.FullDelivery) tradetest.Outcome {
				return w.outcome(loadMix(k, key.farm, key.month, i), month, d)
			},
		})
	}
	return activity.Event{ID: core.NewID(), CreatedAt: needsAt, Type: activity.NeedImport, Data: activity.Data{Count: &count}, OriginID: shop.ID}
}

// outcome is what became of a delivery, as in tools/loadbench: past its
// lock, one in 40 of the months over cancelled, the others done with
// their note sent, one in 9 with its first line 5 % short, one in 30 of
// the months over with a quality claim the shop accepted; later ones
// planned.
func (w *loadWorld) outcome(h uint64, month string, d orders.FullDelivery) tradetest.Outcome {
	if d.Date > w.locked {
		return tradetest.Outcome{}
	}
	if month < w.current && h%40 == 0 {
		return tradetest.Outcome{Status: orders.Cancelled}
	}
	lock := w.rules.LockTime(d.Date)
	out := tradetest.Outcome{Status: orders.Done, NoteSentAt: lock.Add(delivery.NoteDelay)}
	first := d.Lines[0]
	unit := w.products[w.index[first.ProductID]].Unit
	sent := first.QuantityExpected
	if h%9 == 1 {
		if q := loadShort(sent, unit); q != sent {
			sent = q
			out.Sent = map[string]decimal.Dec{first.ProductID: q}
		}
	}
	if month < w.current && h%30 == 2 {
		if claimed := loadShort(sent, unit) - sent; claimed != 0 {
			out.Claim = &tradetest.ClaimOutcome{
				Lines: map[string]tradetest.ClaimedLine{first.ProductID: {
					Quantity: claimed, Type: orders.ClaimQuality, Comment: "Quelques pièces abîmées au déballage",
				}},
				SentAt: lock.Add(3 * time.Hour), Status: orders.ClaimAccepted, ReviewedAt: lock.Add(23 * time.Hour),
			}
		}
	}
	return out
}

// bill issues, as the monthly run does (billing.Due, billing.Issue at the
// month's issue time), the invoice of each order of a month over with a
// done delivery, and with it a credit note for each accepted claim of it.
func (w *loadWorld) bill(ctx context.Context, q store.Q, written []orders.Full) error {
	months := make(map[string]string, len(written))
	for _, f := range written {
		months[f.ID] = f.Month
	}
	due, err := billing.Due(ctx, q, w.now, w.rules.Location)
	if err != nil {
		return err
	}
	for _, id := range due {
		m, ok := calendar.ParseMonth(months[id])
		if !ok {
			continue // not an order of the seed
		}
		if _, err := billing.Issue(ctx, q, id, billing.IssueTime(m, w.rules.Location), w.rules.Location); err != nil {
			return err
		}
	}
	return nil
}

func (w *loadWorld) monthStart(key string) time.Time {
	m, ok := calendar.ParseMonth(key)
	if !ok {
		panic("month " + key)
	}
	return m.Start(w.rules.Location)
}

// loadPart is a share of a need, whole pieces for pieces, at least one
// unit (or the need when smaller).
func loadPart(need decimal.Dec, share float64, unit string) decimal.Dec {
	q := decimal.Dec(float64(need) * share)
	if unit == catalog.Piece {
		q = q / 100 * 100
		if q == 0 {
			q = 100
		}
	}
	return max(1, min(q, need))
}

// loadShort is a delivery 5 % short (a piece less from 20 pieces).
func loadShort(q decimal.Dec, unit string) decimal.Dec {
	if unit == catalog.Piece {
		if q >= 2000 {
			return q - 100
		}
		return q
	}
	return q - q/20
}

// loadMix is a deterministic hash of its parts (splitmix64 steps).
func loadMix(parts ...int) uint64 {
	h := uint64(0x9E3779B97F4A7C15)
	for _, p := range parts {
		h ^= uint64(p) + 0x9E3779B97F4A7C15 + (h << 6) + (h >> 2)
		h ^= h >> 30
		h *= 0xBF58476D1CE4E5B9
		h ^= h >> 27
		h *= 0x94D049BB133111EB
		h ^= h >> 31
	}
	return h
}

// loadFrac maps a hash to [0, 1).
func loadFrac(h uint64) float64 { return float64(h>>11) / (1 << 53) }

// loadLogin logs in with daemontest.Password through the handler and
// returns the session cookie.
func loadLogin(tb testing.TB, h http.Handler, email string) *http.Cookie {
	tb.Helper()
	body, _ := json.Marshal(map[string]string{"email": email, "password": daemontest.Password})
	req := httptest.NewRequest(http.MethodPost, "/auth/login", bytes.NewReader(body))
	req.Header.Set("Content-Type", "application/json")
	rec := httptest.NewRecorder()
	h.ServeHTTP(rec, req)
	for _, c := range rec.Result().Cookies() {
		if rec.Code == http.StatusOK && c.Value != "" {
			return c
		}
	}
	tb.Fatalf("login %s: %d %s", email, rec.Code, rec.Body)
	return nil
}
