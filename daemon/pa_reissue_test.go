package daemon_test

import (
	"context"
	"testing"

	"primeur/core/billing"
	"primeur/core/decimal"
	"primeur/core/jobs"
	"primeur/core/pa"
	"primeur/core/pa/patest"
	"primeur/core/store"
	"primeur/core/store/storetest"
	"primeur/core/trade/tradetest"
	"primeur/daemon/daemontest"
)

// paAccountJSON is the one account of a payments screen, with its
// documents' balances.
type paAccountJSON struct {
	Accounts []struct {
		Owed      decimal.Dec `json:"owed"`
		Documents []struct {
			Number  string      `json:"number"`
			Kind    string      `json:"kind"`
			Total   decimal.Dec `json:"total"`
			Balance decimal.Dec `json:"balance"`
			Refers  string      `json:"refers"`
			Path    string      `json:"path"`
			PA      *struct {
				ReplacedBy string `json:"replacedBy"`
			} `json:"pa"`
		} `json:"documents"`
	} `json:"accounts"`
}

// TestPAReissue (issue 38, PRODUCT §16 "Rejected (213) and refused
// (210)"): the local PA rejects (213) the invoice of a shop whose SIREN it
// does not accept; both sides see "Rejetée". The shop corrects its SIRET,
// the producer re-issues the invoice: a corrected invoice under the next
// number, naming the one it replaces and billing the shop's new SIREN,
// and an internal credit note cancelling the rejected one. The next run
// deposits the replacement — not the credit note — and the PA accepts it.
// A payment allocated to it holds the rejected invoice until it is
// undone. The order's amount is owed once on both sides, the rejected invoice
// naming its replacement, every document rendered; the orders show the
// replacement. Refused, nothing changed: a shop's call, another
// producer's, the rejected invoice again, the replacement (not rejected).
func TestPAReissue(t *testing.T) {
	t.Parallel()
	storetest.Each(t, func(t *testing.T, db *store.DB) {
		ctx := context.Background()
		dw := newDeliveriesWorld(t, db)
		dw.farm.Do("PUT", "/api/user", map[string]any{"siret": "41234567000019"}).Expect(t, 200)
		dw.shop.Do("PUT", "/api/user", map[string]any{"siret": "73282932000074"}).Expect(t, 200)
		invoices(t, dw.s, tradetest.At(2026, 12, 1, 6, 0))
		dw.s.Clock.Set(tradetest.At(2026, 12, 1, 7, 0))
		srv, err := patest.Start(patest.Config{ClientID: "ferme-aravis", ClientSecret: "le-bon-secret",
			Rule: func(inv patest.Invoice) patest.Decision {
				if inv.Buyer == "732829320" {
					return patest.Decision{Outcome: patest.Reject, ReasonCode: "REJ_SEMAN", Reason: "SIREN de l'acheteur inconnu"}
				}
				return patest.Decision{}
			}})
		if err != nil {
			t.Fatal(err)
		}
		defer func() {
			srv.Close()
			if bad := srv.Invalid(); len(bad) > 0 {
				t.Errorf("against the Flow Service's document: %q", bad)
			}
		}()
		dw.farm.Do("PUT", "/api/user/pa", map[string]any{"flowUrl": srv.FlowURL(), "tokenUrl": srv.TokenURL(),
			"clientId": "ferme-aravis", "clientSecret": "le-bon-secret", "since": "2026-11-01"}).Expect(t, 200)
		run := func() {
			t.Helper()
			if _, err := jobs.PA(ctx, jobs.EnvOf(dw.s.Config, dw.s.DB, nil), dw.s.Clock.Now()); err != nil {
				t.Fatal(err)
			}
		}
		run()
		for _, c := range []*daemontest.Client{dw.farm, dw.shop} {
			if got := paStatus(t, c); got != "FA-2026-000001 Rejetée (SIREN de l'acheteur inconnu) | Rejetée" {
				t.Fatalf("after the rejection: %q", got)
			}
		}
		rejected, err := billing.ForOrder(ctx, db, dw.order)
		if err != nil {
			t.Fatal(err)
		}
		path := "/api/user/pa/invoices/" + rejected.ID + "/reissue"

		dw.s.Refuses(t, []daemontest.Refused{
			{Name: "a shop", Client: dw.shop, Method: "POST", Path: path, Status: 403, Detail: "Cette opération est réservée aux producteurs."},
			{Name: "another producer", Client: dw.otherFrm, Method: "POST", Path: path, Status: 404},
		})
		// A payment allocated to the rejected invoice holds it until it is
		// undone.
		dw.farm.Do("POST", "/api/payments", map[string]any{"partnerId": dw.shopID, "amount": 10, "paidOn": "2026-12-01",
			"method": "virement", "documents": []string{rejected.ID}}).Expect(t, 200)
		dw.s.Refuses(t, []daemontest.Refused{
			{Name: "a payment allocated", Client: dw.farm, Method: "POST", Path: path, Status: 409, Detail: billing.MsgReplacePaid},
		})
		var paymentID string
		if err := store.Get(ctx, db, &paymentID, `SELECT id FROM payments WHERE producer_id = ?`, dw.farmID); err != nil {
			t.Fatal(err)
		}
		dw.farm.Do("PUT", "/api/payments/"+paymentID+"/undo", nil).Expect(t, 200)
		// The shop corrects its SIRET, then the producer re-issues.
		dw.shop.Do("PUT", "/api/user", map[string]any{"siret": "81234567600017"}).Expect(t, 200)
		var out struct {
			Invoice struct{ ID, Number string } `json:"invoice"`
			Credit  struct{ ID, Number string } `json:"credit"`
		}
		dw.farm.Do("POST", path, nil).Expect(t, 200).JSON(t, &out)
		if out.Invoice.Number != "FA-2026-000002" || out.Credit.Number == "" {
			t.Fatalf("re-issued: %+v", out)
		}
		repl, err := billing.Get(ctx, db, out.Invoice.ID)
		if err != nil {
			t.Fatal(err)
		}
		named := false
		for _, term := range repl.Terms {
			named = named || term.Text == billing.ReplacementNote("FA-2026-000001")
		}
		if !named || repl.Buyer.SIREN() != "812345676" || repl.TotalTTC != rejected.TotalTTC {
			t.Fatalf("the replacement: %+v", repl)
		}
		cn, err := billing.GetCredit(ctx, db, out.Credit.ID)
		if err != nil {
			t.Fatal(err)
		}
		if !cn.Internal || cn.Refers == nil || cn.Refers.Number != "FA-2026-000001" || cn.TotalTTC != rejected.TotalTTC {
			t.Fatalf("the internal credit note: %+v", cn)
		}
		dw.s.Refuses(t, []daemontest.Refused{
			{Name: "the rejected invoice again", Client: dw.farm, Method: "POST", Path: path, Status: 409,
				Detail: billing.MsgReplaced + "FA-2026-000002."},
			{Name: "the replacement, not rejected", Client: dw.farm, Method: "POST", Path: "/api/user/pa/invoices/" + out.Invoice.ID + "/reissue",
				Status: 409, Detail: pa.MsgNotRejected},
		})

		run()
		deposits := srv.Deposits()
		if deposits[out.Invoice.ID] != 1 || deposits[out.Credit.ID] != 0 || deposits[rejected.ID] != 1 {
			t.Fatalf("deposits %v", deposits)
		}
		// Both sides: the order's amount owed once, the rejected invoice
		// settled by its internal credit note; the orders name the
		// replacement, deposited.
		for _, c := range []*daemontest.Client{dw.farm, dw.shop} {
			var p paAccountJSON
			c.Do("GET", "/api/payments", nil).Expect(t, 200).JSON(t, &p)
			if len(p.Accounts) != 1 || p.Accounts[0].Owed != rejected.TotalTTC {
				t.Fatalf("owed: %+v, want %v once", p, rejected.TotalTTC)
			}
			balances := map[string]decimal.Dec{}
			for _, d := range p.Accounts[0].Documents {
				balances[d.Number] = d.Balance
				if d.Number == "FA-2026-000001" && (d.PA == nil || d.PA.ReplacedBy != "FA-2026-000002") {
					t.Fatalf("the rejected invoice does not name its replacement: %+v", d)
				}
				c.Do("GET", d.Path, nil).Expect(t, 200) // each document renders
			}
			if balances["FA-2026-000001"] != 0 || balances["FA-2026-000002"] != rejected.TotalTTC || len(balances) != 3 {
				t.Fatalf("balances %v", balances)
			}
			if got := ordersPA(t, c); got != "FA-2026-000002 200 Déposée" {
				t.Fatalf("the orders' invoice: %q", got)
			}
		}
		// The books of the month hold the three documents, for the
		// accountant of each side.
		dw.farm.Do("GET", "/print/invoices/2026-12", nil).Expect(t, 200)
		dw.shop.Do("GET", "/print/purchases/2026-12", nil).Expect(t, 200)
	})
}
