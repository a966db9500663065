package daemon_test

import (
	"context"
	"net/http"
	"strings"
	"testing"
	"time"

	"primeur/core/billing"
	"primeur/core/jobs"
	"primeur/core/pa"
	"primeur/core/pa/patest"
	"primeur/core/store"
	"primeur/core/store/storetest"
	"primeur/core/trade/tradetest"
	"primeur/daemon"
	"primeur/daemon/daemontest"
)

type paViewJSON struct {
	Connected      bool   `json:"connected"`
	ClientID       string `json:"clientId"`
	DepositFrom    string `json:"depositFrom"`
	SecretReadable bool   `json:"secretReadable"`
	WebhookPath    string `json:"webhookPath"`
	WebhookToken   string `json:"webhookToken"`
	Deposited      int    `json:"deposited"`
}

type paDocsJSON struct {
	Accounts []struct {
		Documents []struct {
			Number string `json:"number"`
			PA     *struct {
				Status    string `json:"status"`
				Label     string `json:"label"`
				Reason    string `json:"reason"`
				Directory string `json:"directory"`
				History   []struct {
					Label string `json:"label"`
				} `json:"history"`
			} `json:"pa"`
		} `json:"documents"`
	} `json:"accounts"`
}

// paStatus is the PA's status of the first document of the client's
// payments screen: "Label (reason) [history]".
func paStatus(t *testing.T, c *daemontest.Client) string {
	t.Helper()
	var p paDocsJSON
	c.Do("GET", "/api/payments", nil).Expect(t, 200).JSON(t, &p)
	if len(p.Accounts) != 1 || len(p.Accounts[0].Documents) == 0 {
		t.Fatalf("accounts %+v", p)
	}
	d := p.Accounts[0].Documents[0]
	if d.PA == nil {
		return d.Number + " —"
	}
	s := d.Number + " " + d.PA.Label
	if d.PA.Reason != "" {
		s += " (" + d.PA.Reason + ")"
	}
	for _, h := range d.PA.History {
		s += " | " + h.Label
	}
	return s
}

// ordersPA is the number and platform status of each invoice of the
// client's orders (GET /api/orders), as the deliveries screens show them.
func ordersPA(t *testing.T, c *daemontest.Client) string {
	t.Helper()
	var vs []struct {
		Invoice *struct {
			Number string `json:"number"`
			PA     *struct {
				Status string `json:"status"`
				Label  string `json:"label"`
			} `json:"pa"`
		} `json:"invoice"`
	}
	c.Do("GET", "/api/orders?from=2026-11", nil).Expect(t, 200).JSON(t, &vs)
	var out []string
	for _, v := range vs {
		if v.Invoice == nil {
			continue
		}
		s := v.Invoice.Number
		if v.Invoice.PA != nil {
			s += " " + v.Invoice.PA.Status + " " + v.Invoice.PA.Label
		}
		out = append(out, s)
	}
	return strings.Join(out, ", ")
}

// TestPAConnectionAndWebhook (issue 38): a producer connects its PA from
// its profile — a wrong secret is said in French and stores nothing, the
// secret is never sent back —, the pa job deposits its invoice, which
// both sides see "Déposée"; the PA's webhook calls without the token, with
// another producer's, with a body naming no flow or too large are refused
// with 4xx, changing nothing; the buyer's refusal posted by the PA through
// the webhook shows on both sides, in the activity feed and the
// producer's notifications.
func TestPAConnectionAndWebhook(t *testing.T) {
	t.Parallel()
	storetest.Each(t, func(t *testing.T, db *store.DB) {
		dw := newDeliveriesWorld(t, db)
		dw.farm.Do("PUT", "/api/user", map[string]any{"siret": "41234567000019"}).Expect(t, 200)
		dw.shop.Do("PUT", "/api/user", map[string]any{"siret": "73282932000074"}).Expect(t, 200)
		invoices(t, dw.s, tradetest.At(2026, 12, 1, 6, 0))
		dw.s.Clock.Set(tradetest.At(2026, 12, 1, 7, 0))
		srv, err := patest.Start(patest.Config{ClientID: "ferme-aravis", ClientSecret: "le-bon-secret"})
		if err != nil {
			t.Fatal(err)
		}
		defer func() {
			srv.Close()
			if bad := srv.Invalid(); len(bad) > 0 {
				t.Errorf("against the Flow Service's document: %q", bad)
			}
		}()
		form := map[string]any{"flowUrl": srv.FlowURL(), "tokenUrl": srv.TokenURL(), "directoryUrl": srv.DirectoryURL(),
			"clientId": "ferme-aravis", "clientSecret": "pas-le-bon"}

		var test struct {
			OK      bool   `json:"ok"`
			Message string `json:"message"`
		}
		dw.farm.Do("POST", "/api/user/pa/test", form).Expect(t, 200).JSON(t, &test)
		if test.OK || !strings.Contains(test.Message, "l'identifiant ou le secret du client est refusé") {
			t.Fatalf("test with a wrong secret: %+v", test)
		}
		dw.s.Refuses(t, []daemontest.Refused{
			{Name: "a wrong secret", Client: dw.farm, Method: "PUT", Path: "/api/user/pa", Body: form, Status: 422,
				Detail: "L'obtention du jeton d'accès auprès de la plateforme agréée a échoué : l'identifiant ou le secret du client est refusé. Rien n'a été enregistré."},
			{Name: "a future start", Client: dw.farm, Method: "PUT", Path: "/api/user/pa", Status: 422, Detail: daemon.MsgPASince,
				Body: map[string]any{"flowUrl": srv.FlowURL(), "tokenUrl": srv.TokenURL(), "clientId": "ferme-aravis", "clientSecret": "le-bon-secret", "since": "2027-01-01"}},
			{Name: "no secret", Client: dw.farm, Method: "PUT", Path: "/api/user/pa", Status: 422, Detail: pa.MsgSecret,
				Body: map[string]any{"flowUrl": srv.FlowURL(), "tokenUrl": srv.TokenURL(), "clientId": "ferme-aravis"}},
			{Name: "a shop", Client: dw.shop, Method: "PUT", Path: "/api/user/pa", Body: form, Status: 403, Detail: daemon.MsgProducersOnly},
		})
		form["clientSecret"] = "le-bon-secret"
		dw.farm.Do("POST", "/api/user/pa/test", form).Expect(t, 200).JSON(t, &test)
		if !test.OK || test.Message != daemon.MsgPAWorks {
			t.Fatalf("test: %+v", test)
		}
		form["since"] = "2026-11-01"
		res := dw.farm.Do("PUT", "/api/user/pa", form).Expect(t, 200)
		var v paViewJSON
		res.JSON(t, &v)
		if strings.Contains(string(res.Body), "le-bon-secret") || !v.Connected || v.ClientID != "ferme-aravis" || v.DepositFrom != "2026-11-01" ||
			!v.SecretReadable || v.WebhookPath != "/pa/webhook/"+dw.farmID || v.WebhookToken == "" {
			t.Fatalf("connected: %s", res.Body)
		}
		// Saved again without the secret: the stored one is kept; tested
		// with nothing typed: the stored connection is.
		delete(form, "clientSecret")
		dw.farm.Do("PUT", "/api/user/pa", form).Expect(t, 200)
		dw.farm.Do("POST", "/api/user/pa/test", map[string]any{}).Expect(t, 200).JSON(t, &test)
		if !test.OK {
			t.Fatalf("the stored connection tested: %+v", test)
		}

		if _, err := jobs.PA(context.Background(), jobs.EnvOf(dw.s.Config, dw.s.DB, nil), dw.s.Clock.Now()); err != nil {
			t.Fatal(err)
		}
		for _, c := range []*daemontest.Client{dw.farm, dw.shop} {
			if got := paStatus(t, c); got != "FA-2026-000001 Déposée | Déposée" {
				t.Fatalf("after the deposit: %q", got)
			}
		}
		// The deliveries screens show the same status beside the invoice's
		// link, for both sides.
		for _, c := range []*daemontest.Client{dw.farm, dw.shop} {
			if got := ordersPA(t, c); got != "FA-2026-000001 200 Déposée" {
				t.Fatalf("the orders' invoice after the deposit: %q", got)
			}
		}
		// The PA's directory has no line for the shop: each side reads
		// what it means for it.
		for c, want := range map[*daemontest.Client]string{dw.farm: pa.DirectoryNote(pa.DirectoryAbsent, true), dw.shop: pa.DirectoryNote(pa.DirectoryAbsent, false)} {
			var p paDocsJSON
			c.Do("GET", "/api/payments", nil).Expect(t, 200).JSON(t, &p)
			if got := p.Accounts[0].Documents[0].PA.Directory; got != want || want == "" {
				t.Fatalf("directory note %q, want %q", got, want)
			}
		}

		hook := dw.s.Client()
		hook.Header.Set("Authorization", "Bearer "+v.WebhookToken)
		noToken, wrong := dw.s.Client(), dw.s.Client()
		wrong.Header.Set("Authorization", "Bearer "+strings.Repeat("x", len(v.WebhookToken)))
		flows := srv.Flows()
		call := map[string]any{"flowInfo": map[string]any{"flowId": flows[len(flows)-1].FlowID}}
		dw.s.Refuses(t, []daemontest.Refused{
			{Name: "no token", Client: noToken, Method: "POST", Path: v.WebhookPath, Body: call, Status: 401},
			{Name: "a wrong token", Client: wrong, Method: "POST", Path: v.WebhookPath, Body: call, Status: 401},
			{Name: "another producer's path", Client: hook, Method: "POST", Path: "/pa/webhook/" + dw.shopID, Body: call, Status: 401},
			{Name: "no flow named", Client: hook, Method: "POST", Path: v.WebhookPath, Body: map[string]any{"flowInfo": map[string]any{}}, Status: 422},
			{Name: "not JSON", Client: hook, Method: "POST", Path: v.WebhookPath, Body: "{flowInfo", Status: 422},
			{Name: "too large", Client: hook, Method: "POST", Path: v.WebhookPath, Body: `{"x":"` + strings.Repeat("a", jobs.MaxWebhook) + `"}`, Status: 413},
			{Name: "a flow the PA does not hold", Client: hook, Method: "POST", Path: v.WebhookPath, Status: 502,
				Body: map[string]any{"flowInfo": map[string]any{"flowId": "pas-un-flux"}}},
		})

		srv.SetWebhook(dw.s.URL+v.WebhookPath, v.WebhookToken)
		if err := srv.SetStatus("412345670", "FA-2026-000001", pa.StatusRefused,
			patest.Decision{ReasonCode: "NON_COMMANDE", Reason: "Marchandise non commandée"}); err != nil {
			t.Fatal(err)
		}
		srv.WaitWebhooks()
		for _, c := range []*daemontest.Client{dw.farm, dw.shop} {
			if got := paStatus(t, c); got != "FA-2026-000001 Refusée (Marchandise non commandée) | Déposée | Refusée" {
				t.Fatalf("after the webhook: %q", got)
			}
			if got := ordersPA(t, c); got != "FA-2026-000001 210 Refusée" {
				t.Fatalf("the orders' invoice after the webhook: %q", got)
			}
		}
		var lines []string
		if err := store.Select(context.Background(), db, &lines, `SELECT line FROM notifications WHERE user_id = ? AND kind = 'einvoice' ORDER BY created_at`, dw.farmID); err != nil {
			t.Fatal(err)
		}
		if len(lines) != 1 || lines[0] != "Épicerie du Lac a refusé la facture FA-2026-000001 (motif : Marchandise non commandée)." {
			t.Fatalf("producer's notifications %q", lines)
		}
		var feed []struct {
			Type string `json:"type"`
			Data struct {
				Number string `json:"number"`
				Status string `json:"status"`
			} `json:"data"`
		}
		dw.shop.Do("GET", "/api/events", nil).Expect(t, http.StatusOK).JSON(t, &feed)
		var told []string
		for _, e := range feed {
			if e.Type == "invoice:status" {
				told = append(told, e.Data.Number+" "+e.Data.Status)
			}
		}
		if strings.Join(told, ",") != "FA-2026-000001 210,FA-2026-000001 200" {
			t.Fatalf("the shop's feed: %q", told)
		}

		// The refusal opens the credit note cancelling the invoice, though
		// its deliveries' claims closed long ago (two working days after
		// 19 and 24 November): an internal credit note of its lines, its
		// balance nothing left; once only; not for the shop, nor as a
		// re-issue (refused, not rejected).
		dw.s.Clock.Set(tradetest.At(2026, 12, 10, 9, 0))
		inv, err := billing.ForOrder(context.Background(), db, dw.order)
		if err != nil {
			t.Fatal(err)
		}
		dw.s.Refuses(t, []daemontest.Refused{
			{Name: "the shop cancels", Client: dw.shop, Method: "POST", Path: "/api/user/pa/invoices/" + inv.ID + "/cancel", Status: 403,
				Detail: daemon.MsgProducersOnly},
			{Name: "a refused invoice re-issued", Client: dw.farm, Method: "POST", Path: "/api/user/pa/invoices/" + inv.ID + "/reissue",
				Status: 409, Detail: pa.MsgNotRejected},
		})
		var cancelled struct {
			Credit struct{ ID, Number string } `json:"credit"`
		}
		dw.farm.Do("POST", "/api/user/pa/invoices/"+inv.ID+"/cancel", nil).Expect(t, 200).JSON(t, &cancelled)
		cn, err := billing.GetCredit(context.Background(), db, cancelled.Credit.ID)
		if err != nil {
			t.Fatal(err)
		}
		if !cn.Internal || cn.TotalTTC != inv.TotalTTC || cn.IssueDate != "2026-12-10" || cn.Refers.Number != "FA-2026-000001" {
			t.Fatalf("the cancelling credit note: %+v", cn)
		}
		for _, c := range []*daemontest.Client{dw.farm, dw.shop} {
			var p paAccountJSON
			c.Do("GET", "/api/payments", nil).Expect(t, 200).JSON(t, &p)
			if p.Accounts[0].Owed != 0 {
				t.Fatalf("owed after the cancellation: %+v", p)
			}
		}
		dw.s.Refuses(t, []daemontest.Refused{
			{Name: "cancelled again", Client: dw.farm, Method: "POST", Path: "/api/user/pa/invoices/" + inv.ID + "/cancel", Status: 409,
				Detail: billing.MsgCancelled + cancelled.Credit.Number + "."},
		})
		if _, err := jobs.PA(context.Background(), jobs.EnvOf(dw.s.Config, dw.s.DB, nil), dw.s.Clock.Now()); err != nil {
			t.Fatal(err)
		}
		if srv.Deposits()[cancelled.Credit.ID] != 0 {
			t.Fatal("the internal credit note was deposited")
		}

		// The checks call out: a producer makes 10 in 10 minutes (those
		// of "Enregistrer la connexion" counted), then is refused, the
		// test and the connection alike, 429 in French, nothing stored;
		// once its window has passed, it checks again.
		for checks := 0; checks < 10; checks++ { // the clock moved past the window of the checks above
			dw.farm.Do("POST", "/api/user/pa/test", map[string]any{}).Expect(t, 200)
		}
		dw.s.Refuses(t, []daemontest.Refused{
			{Name: "an 11th test", Client: dw.farm, Method: "POST", Path: "/api/user/pa/test", Body: map[string]any{},
				Status: http.StatusTooManyRequests, Detail: daemon.MsgPAChecksTooMany},
			{Name: "a connection past the checks", Client: dw.farm, Method: "PUT", Path: "/api/user/pa", Body: form,
				Status: http.StatusTooManyRequests, Detail: daemon.MsgPAChecksTooMany},
		})
		dw.s.Clock.Set(dw.s.Clock.Now().Add(10 * time.Minute))
		dw.farm.Do("POST", "/api/user/pa/test", map[string]any{}).Expect(t, 200).JSON(t, &test)
		if !test.OK {
			t.Fatalf("a test once the window has passed: %+v", test)
		}
	})
}
