package daemon_test

import (
	"bytes"
	"testing"

	"primeur/core/documents/pdftest"
	"primeur/core/payments"
	"primeur/core/store"
	"primeur/core/store/storetest"
	"primeur/core/trade/tradetest"
	"primeur/daemon"
	"primeur/daemon/daemontest"
)

// flatRateJSON is what GET /api/payments answers of the buyer's documents.
type flatRateJSON struct {
	Accounts []struct {
		PartnerID string `json:"partnerId"`
		FlatRate  *struct {
			Liable bool   `json:"liable"`
			Why    string `json:"why"`
			Slips  []struct {
				PaymentID string  `json:"paymentId"`
				Number    string  `json:"number"`
				PaidOn    string  `json:"paidOn"`
				Amount    float64 `json:"amount"`
				Path      string  `json:"path"`
			} `json:"slips"`
			Certificates []struct {
				Year   int     `json:"year"`
				Amount float64 `json:"amount"`
				Path   string  `json:"path"`
			} `json:"certificates"`
		} `json:"flatRate"`
	} `json:"accounts"`
}

// TestFlatRateDocumentsAPI: Ferme des Aravis registered without a VAT
// number sells under the flat-rate refund. While Épicerie du Lac has no
// VAT number, both sides are told why there are no documents and the
// slip is not served; once it has one, GET /api/payments lists each
// recorded payment's slip and the year's certificate, both sides download
// them (the same slip whenever), nobody else, and what is refused changes
// nothing.
func TestFlatRateDocumentsAPI(t *testing.T) {
	t.Parallel()
	storetest.Each(t, func(t *testing.T, db *store.DB) {
		dw := newDeliveriesWorld(t, db)
		invoices(t, dw.s, tradetest.At(2026, 12, 1, 6, 0))
		dw.s.Clock.Set(tradetest.At(2026, 12, 3, 9, 0))
		var p payments.Payment
		var view flatRateJSON
		dw.farm.Do("POST", "/api/payments", map[string]any{"partnerId": dw.shopID, "amount": 10.5, "paidOn": "2026-12-02",
			"method": "virement", "reference": "VIR 2026-12"}).Expect(t, 200)
		if err := store.Get(t.Context(), db, &p.ID, `SELECT id FROM payments WHERE producer_id = ?`, dw.farmID); err != nil {
			t.Fatal(err)
		}
		for _, c := range []struct {
			client *daemontest.Client
			why    string
		}{{dw.shop, payments.MsgFlatShopNoVAT}, {dw.farm, payments.MsgFlatProducerNoVAT}} {
			c.client.Do("GET", "/api/payments", nil).Expect(t, 200).JSON(t, &view)
			if f := view.Accounts[0].FlatRate; f == nil || f.Liable || f.Why != c.why || len(f.Slips) != 0 || len(f.Certificates) != 0 {
				t.Fatalf("without a VAT number: %+v", f)
			}
		}
		dw.shop.Do("GET", "/print/purchase-slip/"+p.ID, nil).Expect(t, 404)

		// The shop gives its VAT number: the documents exist.
		dw.shop.Do("PUT", "/api/user", map[string]any{"siret": "98765432400019", "tvaintracom": "FR14987654324"}).Expect(t, 200)
		slip := "/print/purchase-slip/" + p.ID
		var first []byte
		for _, c := range []struct {
			client  *daemontest.Client
			partner string
		}{{dw.shop, dw.farmID}, {dw.farm, dw.shopID}} {
			view = flatRateJSON{}
			c.client.Do("GET", "/api/payments", nil).Expect(t, 200).JSON(t, &view)
			f := view.Accounts[0].FlatRate
			certificate := "/print/flat-rate-certificate/" + c.partner + "/2026"
			if f == nil || !f.Liable || f.Why != "" || len(f.Slips) != 1 || f.Slips[0].PaymentID != p.ID || f.Slips[0].Amount != 10.5 ||
				f.Slips[0].PaidOn != "2026-12-02" || f.Slips[0].Path != slip || len(f.Certificates) != 1 ||
				f.Certificates[0].Year != 2026 || f.Certificates[0].Amount != 10.5 || f.Certificates[0].Path != certificate {
				t.Fatalf("the documents listed: %+v", f)
			}
			number := f.Slips[0].Number
			res := c.client.Do("GET", slip, nil).Expect(t, 200)
			if res.Header.Get("Content-Type") != "application/pdf" ||
				res.Header.Get("Content-Disposition") != `attachment; filename="bulletin-achat-`+number+`.pdf"` {
				t.Fatalf("slip: %v", res.Header)
			}
			if first == nil {
				first = res.Body
				text := pdftest.Text(t, res.Body)
				for _, want := range []string{"Bulletin d'achat " + number, "Date du paiement : 2 décembre 2026",
					"Montant payé : 10,50 €", "N° TVA intracommunautaire : FR14987654324", "Ferme des Aravis", "Épicerie du Lac",
					"Facture FA-2026-000001", "Tomate", "art. 265 de l'annexe II au CGI"} {
					if !bytes.Contains([]byte(text), []byte(want)) {
						t.Errorf("slip without %q:\n%s", want, text)
					}
				}
			} else if !bytes.Equal(res.Body, first) {
				t.Fatal("the producer's slip is not the shop's")
			}
			res = c.client.Do("GET", certificate, nil).Expect(t, 200)
			if res.Header.Get("Content-Disposition") != `attachment; filename="attestation-remboursement-forfaitaire-2026.pdf"` {
				t.Fatalf("certificate: %v", res.Header)
			}
			text := pdftest.Text(t, res.Body)
			for _, want := range []string{"Attestation annuelle Année 2026", "Attestation provisoire", "Total 10,50 € 0,47 €",
				number, "article 266-I de l'annexe II au CGI"} {
				if !bytes.Contains([]byte(text), []byte(want)) {
					t.Errorf("certificate without %q:\n%s", want, text)
				}
			}
		}
		notFound := "Ressource introuvable."
		dw.s.Refuses(t, []daemontest.Refused{
			{Name: "anonymous slip", Client: dw.s.Client(), Method: "GET", Path: slip, Status: 401, Detail: daemon.MsgNoToken},
			{Name: "another shop's slip", Client: dw.otherShop, Method: "GET", Path: slip, Status: 404, Detail: notFound},
			{Name: "another producer's slip", Client: dw.otherFrm, Method: "GET", Path: slip, Status: 404, Detail: notFound},
			{Name: "no such payment", Client: dw.shop, Method: "GET", Path: "/print/purchase-slip/nope", Status: 404, Detail: notFound},
			{Name: "another shop's certificate", Client: dw.otherShop, Method: "GET", Path: "/print/flat-rate-certificate/" + dw.farmID + "/2026", Status: 404, Detail: notFound},
			{Name: "another producer's certificate", Client: dw.otherFrm, Method: "GET", Path: "/print/flat-rate-certificate/" + dw.shopID + "/2026", Status: 404, Detail: notFound},
			{Name: "a year without payment", Client: dw.shop, Method: "GET", Path: "/print/flat-rate-certificate/" + dw.farmID + "/2025", Status: 404, Detail: notFound},
			{Name: "a year to come", Client: dw.shop, Method: "GET", Path: "/print/flat-rate-certificate/" + dw.farmID + "/2028", Status: 404, Detail: notFound},
			{Name: "a year that is none", Client: dw.shop, Method: "GET", Path: "/print/flat-rate-certificate/" + dw.farmID + "/20x6", Status: 400, Detail: daemon.MsgCertificateYear},
			{Name: "a year of five digits", Client: dw.farm, Method: "GET", Path: "/print/flat-rate-certificate/" + dw.shopID + "/02026", Status: 400, Detail: daemon.MsgCertificateYear},
		})

		// The same slip days later.
		dw.s.Clock.Set(tradetest.At(2026, 12, 5, 9, 0))
		if again := dw.shop.Do("GET", slip, nil).Expect(t, 200).Body; !bytes.Equal(again, first) {
			t.Fatal("the slip changed")
		}

		// Undone, the payment has no slip any more.
		view = flatRateJSON{}
		dw.farm.Do("PUT", "/api/payments/"+p.ID+"/undo", nil).Expect(t, 200).JSON(t, &view)
		if f := view.Accounts[0].FlatRate; f == nil || len(f.Slips) != 0 || len(f.Certificates) != 0 {
			t.Fatalf("undone: %+v", f)
		}
		dw.shop.Do("GET", slip, nil).Expect(t, 404)
	})
}
