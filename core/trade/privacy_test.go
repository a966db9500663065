package trade_test

import (
	"fmt"
	"slices"
	"strings"
	"sync/atomic"
	"testing"

	"primeur/core/accounts"
	"primeur/core/decimal"
	"primeur/core/planning"
	"primeur/core/store"
	"primeur/core/store/storetest"
	"primeur/core/trade"
)

// sirets numbers the test accounts' SIRETs (newUser).
var sirets atomic.Int64

// siretOf is the n-th test SIRET: a SIREN of its own (8 digits from n and
// its Luhn key), establishment 0001 and the SIRET's key.
func siretOf(n int) string {
	return establishment(accounts.LuhnComplete(fmt.Sprintf("%08d", 10_000_000+n)), 1)
}

// establishment is the SIRET of the i-th establishment of siren.
func establishment(siren string, i int) string {
	return accounts.LuhnComplete(fmt.Sprintf("%s%04d", siren, i))
}

// TestEntityOf: an account counts as the SIREN of its SIRET when its login
// is confirmed and its SIRET valid; as nothing otherwise.
func TestEntityOf(t *testing.T) {
	t.Parallel()
	siret := siretOf(42)
	for _, c := range []struct {
		name  string
		u     accounts.User
		want  string
		empty bool
	}{
		{"confirmed, valid SIRET", accounts.User{SIRET: siret, EmailKey: "a@x.fr", EmailConfirmedKey: "a@x.fr"}, siret[:9], false},
		{"as typed, with spaces", accounts.User{SIRET: siret[:3] + " " + siret[3:9] + " " + siret[9:], EmailKey: "a@x.fr", EmailConfirmedKey: "a@x.fr"}, siret[:9], false},
		{"another establishment, the same company", accounts.User{SIRET: establishment(siret[:9], 7), EmailKey: "a@x.fr", EmailConfirmedKey: "a@x.fr"}, siret[:9], false},
		{"La Poste's rule", accounts.User{SIRET: "35600000000001", EmailKey: "a@x.fr", EmailConfirmedKey: "a@x.fr"}, accounts.LaPosteSIREN, false},
		{"login never confirmed", accounts.User{SIRET: siret, EmailKey: "a@x.fr"}, "", true},
		{"a new login not confirmed yet", accounts.User{SIRET: siret, EmailKey: "b@x.fr", EmailConfirmedKey: "a@x.fr"}, "", true},
		{"no SIRET", accounts.User{EmailKey: "a@x.fr", EmailConfirmedKey: "a@x.fr"}, "", true},
		{"a bad key", accounts.User{SIRET: siret[:13] + string('0'+(siret[13]-'0'+1)%10), EmailKey: "a@x.fr", EmailConfirmedKey: "a@x.fr"}, "", true},
		{"a SIREN alone", accounts.User{SIRET: siret[:9], EmailKey: "a@x.fr", EmailConfirmedKey: "a@x.fr"}, "", true},
	} {
		if got := trade.EntityOf(c.u); got != c.want {
			t.Errorf("%s: entity %q, want %q", c.name, got, c.want)
		}
	}
}

// TestCounts: a commitment counts between two entities of two companies,
// of 1 kg or piece and 10 € HT at least.
func TestCounts(t *testing.T) {
	t.Parallel()
	for _, c := range []struct {
		name            string
		buyer, seller   string
		quantity, price decimal.Dec
		want            bool
	}{
		{"1 kg at 10 €", "111111111", "222222222", 100, 1000, true},
		{"50 kg at 3.37 €", "111111111", "222222222", 5000, 337, true},
		{"0.01 kg at 0.01 €", "111111111", "222222222", 1, 1, false},
		{"0.99 kg at 20 €", "111111111", "222222222", 99, 2000, false},
		{"5 kg at 1.99 €: 9.95 €", "111111111", "222222222", 500, 199, false},
		{"one company on both sides", "111111111", "111111111", 5000, 337, false},
		{"a buyer of no entity", "", "222222222", 5000, 337, false},
		{"a seller of no entity", "111111111", "", 5000, 337, false},
		{"no price", "111111111", "222222222", 5000, 0, false},
	} {
		if got := trade.Counts(c.buyer, c.seller, c.quantity, c.price); got != c.want {
			t.Errorf("%s: counts %v, want %v", c.name, got, c.want)
		}
	}
}

// TestShownAndRounded: a figure is shown with 3 distinct entities on each
// side, none holding more than half its quantity, rounded half up to 10
// cents.
func TestShownAndRounded(t *testing.T) {
	t.Parallel()
	base := trade.Cell{Amount: 300 * 300, Quantity: 300, Purchases: 3, Buyers: 3, Sellers: 3, LargestBuyer: 100, LargestSeller: 100}
	for _, c := range []struct {
		name string
		edit func(c *trade.Cell)
		want bool
	}{
		{"3 and 3, a third each", func(*trade.Cell) {}, true},
		{"2 buyers", func(c *trade.Cell) { c.Buyers = 2 }, false},
		{"2 sellers", func(c *trade.Cell) { c.Sellers = 2 }, false},
		{"a buyer of exactly half", func(c *trade.Cell) { c.LargestBuyer = 150 }, true},
		{"a buyer of more than half", func(c *trade.Cell) { c.LargestBuyer = 151 }, false},
		{"a seller of more than half", func(c *trade.Cell) { c.LargestSeller = 151 }, false},
		{"nothing bought", func(c *trade.Cell) { c.Quantity, c.Amount, c.LargestBuyer, c.LargestSeller = 0, 0, 0, 0 }, false},
	} {
		cell := base
		c.edit(&cell)
		if got := trade.Shown(cell); got != c.want {
			t.Errorf("%s: shown %v, want %v", c.name, got, c.want)
		}
	}
	for _, c := range []struct {
		amount, quantity int64
		want             decimal.Dec
	}{
		{337 * 5000, 5000, 340},          // 3.37 → 3.40
		{2349 * 1000, 10000, 230},        // 2.349 → 2.30
		{235 * 10000, 10000, 240},        // 2.35 → 2.40, half up
		{23499 * 1000, 100000, 230},      // 2.3499 → 2.30
		{600 * 100, 250, 240},            // 2.40
		{1300 * 100, 450, 290},           // 2.888… → 2.90
		{4 * 100, 100, 0},                // 0.04 → 0.00
		{99999999 * 100, 100, 100000000}, // 999,999.99 → 1,000,000.00
	} {
		if got := trade.Average(c.amount, c.quantity); got != c.want {
			t.Errorf("average of %d over %d: %v, want %v", c.amount, c.quantity, got, c.want)
		}
	}
}

// sybils are the accounts an attacker adds around one real deal.
type sybils struct {
	name string
	// prepare makes the four accounts (two shops, two producers) what the
	// attacker could make them; each starts confirmed with a SIRET of its
	// own.
	prepare func(t *testing.T, db *store.DB, shops, farms []accounts.User, realShop, realFarm accounts.User)
	// quantity and price of each of their four commitments.
	quantity, price float64
}

// unconfirm leaves accounts as SignUp makes them: the login not confirmed.
func unconfirm(t *testing.T, db *store.DB, us ...accounts.User) {
	t.Helper()
	for _, u := range us {
		exec(t, db, `UPDATE users SET email_confirmed = '' WHERE id = ?`, u.ID)
	}
}

// setSIRET gives accounts a SIRET.
func setSIRET(t *testing.T, db *store.DB, siret string, us ...accounts.User) {
	t.Helper()
	for _, u := range us {
		exec(t, db, `UPDATE users SET siret = ? WHERE id = ?`, siret, u.ID)
	}
}

// attacks are the ways around one real deal of issue 33's finding 2, each
// of which leaves nothing to read.
var attacks = []sybils{
	{"fresh accounts, not confirmed", func(t *testing.T, db *store.DB, shops, farms []accounts.User, _, _ accounts.User) {
		unconfirm(t, db, append(shops, farms...)...)
	}, 0.01, 0.01},
	{"fresh accounts trading for real", func(t *testing.T, db *store.DB, shops, farms []accounts.User, _, _ accounts.User) {
		unconfirm(t, db, append(shops, farms...)...)
	}, 50, 3},
	{"no SIRET", func(t *testing.T, db *store.DB, shops, farms []accounts.User, _, _ accounts.User) {
		setSIRET(t, db, "", append(shops, farms...)...)
	}, 50, 3},
	{"one company behind them all", func(t *testing.T, db *store.DB, shops, farms []accounts.User, _, _ accounts.User) {
		siren := siretOf(900)[:9]
		for i, u := range append(shops, farms...) {
			setSIRET(t, db, establishment(siren, 2+i), u)
		}
	}, 50, 3},
	{"one company buying, another selling", func(t *testing.T, db *store.DB, shops, farms []accounts.User, _, _ accounts.User) {
		buyer, seller := siretOf(901)[:9], siretOf(902)[:9]
		for i := range shops {
			setSIRET(t, db, establishment(buyer, 2+i), shops[i])
			setSIRET(t, db, establishment(seller, 2+i), farms[i])
		}
	}, 50, 3},
	{"the partners' own SIRENs, public in the register", func(t *testing.T, db *store.DB, shops, farms []accounts.User, realShop, realFarm accounts.User) {
		for i, u := range shops {
			setSIRET(t, db, establishment(realShop.SIRET[:9], 10+i), u)
		}
		for i, u := range farms {
			setSIRET(t, db, establishment(realFarm.SIRET[:9], 10+i), u)
		}
	}, 50, 3},
	{"confirmed companies trading crumbs", nil, 0.01, 0.01},
	{"confirmed companies under a kilo", nil, 0.99, 50},
	{"confirmed companies under 10 €", nil, 5, 1.99},
	{"confirmed companies dwarfed by the real deal", nil, 1, 10},
}

// sybilWorld is issue 33's finding 2: a real shop of Haute-Savoie and a
// real producer agree on 50 kg of tomatoes at 3.37 €; then two shops and
// two producers of the attacker's, prepared as a says, each shop buying
// from each producer, through the real operations. It returns the real
// shop's need.
func sybilWorld(t *testing.T, db *store.DB, a sybils) (need string, realShop, realFarm accounts.User) {
	t.Helper()
	realShop = located(t, db, "vrai-magasin@x.fr", accounts.Distributor, "74000")
	realFarm = located(t, db, "vraie-ferme@x.fr", accounts.Producer, "73000")
	need, err := planningCreate(db, realShop.ID, "tomate", "2026-12", 100)
	if err != nil {
		t.Fatal(err)
	}
	ok(t)(propose(db, realFarm, need, realFarm.ID, 50, 3.37, now))
	ok(t)(review(db, realShop, need, realFarm.ID, true, now))
	var shops, farms []accounts.User
	for i := range 2 {
		shops = append(shops, located(t, db, fmt.Sprintf("faux-magasin%d@x.fr", i), accounts.Distributor, "74150"))
		farms = append(farms, located(t, db, fmt.Sprintf("fausse-ferme%d@x.fr", i), accounts.Producer, "74150"))
	}
	if a.prepare != nil {
		a.prepare(t, db, shops, farms, realShop, realFarm)
	}
	for _, s := range shops {
		id, err := planningCreate(db, s.ID, "tomate", "2026-12", 1000)
		if err != nil {
			t.Fatal(err)
		}
		for _, f := range farms {
			ok(t)(propose(db, f, id, f.ID, a.quantity, a.price, now))
			ok(t)(review(db, s, id, f.ID, true, now))
		}
	}
	return need, realShop, realFarm
}

// TestSybilsLearnNothing runs each attack of issue 33's finding 2 through
// the real operations on both engines: the comparison, national or local,
// gives no figure — so neither the real partner's price nor a count of
// purchases. The sums kept equal
// those rebuilt.
func TestSybilsLearnNothing(t *testing.T) {
	t.Parallel()
	for _, a := range attacks {
		t.Run(a.name, func(t *testing.T) {
			storetest.Each(t, func(t *testing.T, db *store.DB) {
				sybilWorld(t, db, a)
				keptEqualsRebuilt(t, db, a.name)
				c, err := trade.Compare(ctx, db, "tomate", "2026-12-01", "74")
				if err != nil {
					t.Fatal(err)
				}
				if c.National != nil || c.Local != nil {
					t.Fatalf("comparison %+v / %+v: a figure around one real deal", c.National, c.Local)
				}
			})
		})
	}
}

// TestRealFiguresShow: two more real companies buying and two more
// selling, each purchase a real one, make the figures show: the
// comparison nationally and in Haute-Savoie, rounded to 10 cents —
// (50 × 3.37 + 4 × 25 × 3) / 150 = 3.1233… → 3.10, never
// the partner's 3.37.
func TestRealFiguresShow(t *testing.T) {
	t.Parallel()
	storetest.Each(t, func(t *testing.T, db *store.DB) {
		need, realShop, realFarm := sybilWorld(t, db, sybils{name: "real companies", quantity: 25, price: 3})
		keptEqualsRebuilt(t, db, "real companies")
		c, err := trade.Compare(ctx, db, "tomate", "2026-12-01", "74")
		if err != nil {
			t.Fatal(err)
		}
		want := trade.Figure{Area: "FR", Average: 310, Purchases: 5}
		if c.National == nil || *c.National != want {
			t.Fatalf("national figure %+v, want %+v", c.National, want)
		}
		want.Area = "74"
		if c.Local == nil || *c.Local != want {
			t.Fatalf("local figure %+v, want %+v", c.Local, want)
		}

		// The partners see their own deal exactly, in the need as their
		// user loads read it.
		for _, f := range []planning.Filter{{DistributorID: realShop.ID}, {TradedBy: realFarm.ID, OnlyProposalsOf: realFarm.ID}} {
			vs, err := planning.List(ctx, db, f)
			if err != nil {
				t.Fatal(err)
			}
			i := slices.IndexFunc(vs, func(v planning.View) bool { return v.ID == need })
			if i < 0 || len(vs[i].Proposals) != 1 || vs[i].Proposals[0].Price != 337 || vs[i].Proposals[0].Quantity != 5000 {
				t.Fatalf("%+v: the deal %+v", f, vs)
			}
		}
	})
}

// TestPriceReadsUseTheirIndexes checks on SQLite's query planner that an
// acceptance finds a cell's largest buyer and seller one step down
// price_entities_largest, not among every entity of the cell.
func TestPriceReadsUseTheirIndexes(t *testing.T) {
	t.Parallel()
	db := storetest.SQLite(t)
	for _, c := range []struct {
		query string
		args  []any
		uses  []string
	}{
		{trade.LargestSQL + "(product_id = ? AND month = ? AND area = ?) OR (product_id = ? AND month = ? AND area = ?)",
			[]any{"tomate", "2026-12-01", "FR", "tomate", "2026-12-01", "74"}, []string{"price_entities_largest"}},
	} {
		plan := storetest.QueryPlan(t, db, c.query, c.args...)
		joined := strings.Join(plan, "; ")
		for _, u := range c.uses {
			if !strings.Contains(joined, u) {
				t.Errorf("%s\ndoes not use %s: %s", c.query, u, joined)
			}
		}
		for _, step := range plan {
			if strings.HasPrefix(strings.TrimLeft(step, " |-`"), "SCAN") {
				t.Errorf("%s\nscans a table: %s", c.query, joined)
			}
		}
	}
}
