package demo

import (
	"context"
	"errors"
	"math"
	"strings"
	"testing"
	"time"

	"github.com/jmoiron/sqlx"

	"primeur/core/accounts"
	"primeur/core/decimal"
	"primeur/core/fees"
	"primeur/core/planning"
	"primeur/core/store"
	"primeur/core/trade"
)

var errRollback = errors.New("rolled back")

// seededFees (TestSeed/fees): Ferme des Glières's terms for each shop of
// its round; its invoices carry delivery fees; its proposals waiting, each accepted in a transaction rolled
// back, are accepted or refused by the minimum set after them (the next
// month's orders hold only the negotiated crops until the shops' whole
// needs are agreed, ten days before the month), never anything else.
func seededFees(t *testing.T, db *store.DB, now time.Time) {
	ctx := context.Background()
	farm, err := accounts.ByEmail(ctx, db, producers[0].email)
	if err != nil {
		t.Fatal(err)
	}
	for _, c := range []struct {
		shop    int
		minimum decimal.Dec
		fee     decimal.Dec
		km      float64
	}{
		{0, 6000, 0, -1},       // Épicerie du Lac: delivered free, no distance counted
		{1, 6000, 800, 18.7},   // Le Panier des Aravis: up to 20 km
		{2, 10000, 1500, 36.3}, // La Halle de Rumilly: its minimum, past 30 km
		{3, 6000, 1200, 28.0},  // Primeurs du Genevois: up to 30 km
	} {
		shop, err := accounts.ByEmail(ctx, db, shops[c.shop].email)
		if err != nil {
			t.Fatal(err)
		}
		a, err := fees.For(ctx, db, farm.ID, shop.ID)
		if err != nil {
			t.Fatal(err)
		}
		km := -1.0
		if a.DistanceKm != nil {
			km = *a.DistanceKm
		}
		if a.Minimum != c.minimum || a.Fee != c.fee || a.FreeAbove != 30000 || math.Abs(km-c.km) > 0.05 {
			t.Errorf("%s: %+v at %.1f km, want minimum %v, fee %v at %.1f km", shop.Name, a, km, c.minimum, c.fee, c.km)
		}
	}
	// Its invoices of the months over carry the fees of the deliveries
	// under 300 € (set before the deliveries were locked and billed).
	var feeLines int
	if err := store.Get(ctx, db, &feeLines, `SELECT COUNT(*) FROM document_lines l JOIN documents d ON d.id = l.document_id
		WHERE d.producer_id = ? AND d.kind = 'invoice' AND l.product LIKE 'Frais de livraison%'`, farm.ID); err != nil {
		t.Fatal(err)
	}
	if feeLines == 0 {
		t.Error("no invoice of Ferme des Glières carries a delivery fee")
	}
	var open []struct {
		Need string `db:"need_id"`
		Shop string `db:"distributor_id"`
		From string `db:"origin"`
	}
	if err := store.Select(ctx, db, &open, `SELECT p.need_id, n.distributor_id, p.origin FROM proposals p JOIN needs n ON n.id = p.need_id
		WHERE p.producer_id = ? AND p.status = ?`, farm.ID, planning.StatusProposed); err != nil {
		t.Fatal(err)
	}
	if len(open) == 0 {
		t.Fatal("Ferme des Glières has no proposal waiting")
	}
	for _, p := range open {
		actor := farm
		if p.From == planning.FromProducer {
			if actor, err = accounts.ByID(ctx, db, p.Shop); err != nil {
				t.Fatal(err)
			}
		}
		err := db.Tx(ctx, func(tx *sqlx.Tx) error {
			if _, err := trade.Review(ctx, tx, actor, p.Need, farm.ID, true, now); err != nil {
				return err
			}
			return errRollback
		})
		if !errors.Is(err, errRollback) && !strings.HasPrefix(err.Error(), "Commande minimum de 60,00 € par livraison : il manque ") {
			t.Errorf("accepting the proposal on need %s: %v", p.Need, err)
		}
	}
}
