package commands

import (
	"encoding/json"
	"strings"
	"testing"

	"primeur/core/billing"
	"primeur/core/pa"
	"primeur/core/pa/patest"
)

// TestPAReissueAndCancel: the demo's Ferme des Glières connected to a local
// PA that rejects (213) its invoice FA-2026-000005 and lets Le Panier des
// Aravis refuse (210) its own, paid (FA-2026-000006: the run reads the
// statuses before posting the Encaissée of paid invoices, so a refused
// one is not posted). An administrator re-issues the rejected invoice (pa
// reissue) and cancels the refused one (pa cancel); the next run deposits
// the corrected invoice, and pa status never lists the internal credit
// notes. Refused in one line: an unknown number, a rejected invoice
// cancelled, a refused one re-issued, the same invoice twice.
func TestPAReissueAndCancel(t *testing.T) {
	withDemo(t)
	srv, err := patest.Start(patest.Config{ClientID: "glieres", ClientSecret: "le-secret-des-glieres",
		Rule: func(inv patest.Invoice) patest.Decision {
			switch {
			case inv.Number == "FA-2026-000005":
				return patest.Decision{Outcome: patest.Reject, ReasonCode: "REJ_SEMAN", Reason: "Donnée invalide"}
			case inv.Buyer == "753218643":
				return patest.Decision{Outcome: patest.Refuse, ReasonCode: "NON_CONFORME", Reason: "Marchandise non conforme"}
			}
			return patest.Decision{}
		}})
	if err != nil {
		t.Fatal(err)
	}
	defer srv.Close()
	producer := "ferme-des-glieres@demo.primeur.fr"
	if code, _, errOut := run(t, "le-secret-des-glieres\n", "pa", "connect", producer, "--flow-url", srv.FlowURL(),
		"--token-url", srv.TokenURL(), "--client-id", "glieres", "--since", "2020-01-01"); code != 0 {
		t.Fatalf("connect: %s", errOut)
	}
	if code, _, errOut := run(t, "", "jobs", "run", "pa"); code != 0 {
		t.Fatalf("run: %s", errOut)
	}
	status := func() map[string]string {
		t.Helper()
		code, out, errOut := run(t, "", "pa", "status", "--producer", producer, "--json")
		if code != 0 {
			t.Fatalf("status: %s", errOut)
		}
		var docs []pa.Document
		if err := json.Unmarshal([]byte(out), &docs); err != nil {
			t.Fatal(err)
		}
		by := map[string]string{}
		for _, d := range docs {
			by[d.Number] = d.Status
		}
		return by
	}
	before := status()
	if before["FA-2026-000005"] != pa.StatusRejected || before["FA-2026-000006"] != pa.StatusRefused {
		t.Fatalf("statuses: %v", before)
	}
	for _, tc := range []struct {
		args []string
		want string
	}{
		{[]string{"reissue", producer, "FA-2026-999999"}, "aucune facture mensuelle FA-2026-999999 de " + producer},
		{[]string{"cancel", producer, "FA-2026-000005"}, pa.MsgNotRefused},
		{[]string{"reissue", producer, "FA-2026-000006"}, pa.MsgNotRejected},
	} {
		code, out, errOut := run(t, "", append([]string{"pa"}, tc.args...)...)
		if code != 1 || out != "" || !strings.Contains(errOut, tc.want) {
			t.Fatalf("%v: %d %q %q", tc.args, code, out, errOut)
		}
	}
	code, out, errOut := run(t, "", "pa", "reissue", producer, "FA-2026-000005")
	fields := strings.Fields(out)
	if code != 0 || !strings.HasPrefix(out, "facture FA-2026-000005 remplacée par la facture corrigée FA-2026-") || len(fields) < 8 {
		t.Fatalf("reissue: %d %q %q", code, out, errOut)
	}
	replacement := strings.TrimSuffix(fields[7], ",")
	code, out, errOut = run(t, "", "pa", "cancel", producer, "FA-2026-000006")
	if code != 0 || !strings.HasPrefix(out, "facture FA-2026-000006 annulée par l'avoir interne AV-") {
		t.Fatalf("cancel: %d %q %q", code, out, errOut)
	}
	for _, tc := range []struct {
		args []string
		want string
	}{
		{[]string{"reissue", producer, "FA-2026-000005"}, billing.MsgReplaced + replacement + "."},
		{[]string{"cancel", producer, "FA-2026-000006"}, billing.MsgCancelled},
	} {
		code, out, errOut := run(t, "", append([]string{"pa"}, tc.args...)...)
		if code != 1 || out != "" || !strings.Contains(errOut, tc.want) {
			t.Fatalf("%v again: %d %q %q", tc.args, code, out, errOut)
		}
	}
	if code, _, errOut := run(t, "", "jobs", "run", "pa"); code != 0 {
		t.Fatalf("run: %s", errOut)
	}
	after := status()
	// The replacement deposited; the internal credit notes never listed.
	if after[replacement] != pa.StatusDeposited || len(after) != len(before)+1 {
		t.Fatalf("after the run: %v (before %v)", after, before)
	}
}
