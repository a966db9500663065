package commands

import (
	"encoding/json"
	"strings"
	"testing"
)

// TestPaymentsList lists the demo world's balances: a table, the same in
// JSON, and only the overdue pairs with --overdue.
func TestPaymentsList(t *testing.T) {
	withDemo(t)
	code, out, errOut := run(t, "", "payments", "list")
	if code != 0 || !strings.HasPrefix(out, "magasin") || !strings.Contains(out, "reste à payer") {
		t.Fatalf("list: %d %q %q", code, out, errOut)
	}
	code, out, errOut = run(t, "", "payments", "list", "--json")
	var all []accountJSON
	if code != 0 || json.Unmarshal([]byte(out), &all) != nil || len(all) == 0 {
		t.Fatalf("json: %d %q %q", code, out, errOut)
	}
	overdue := 0
	for _, a := range all {
		if a.Shop == "" || a.Producer == "" || a.Owed < a.Overdue {
			t.Fatalf("account %+v", a)
		}
		if a.Overdue > 0 {
			overdue++
		}
	}
	code, out, _ = run(t, "", "payments", "list", "--overdue", "--json")
	var late []accountJSON
	if code != 0 || json.Unmarshal([]byte(out), &late) != nil || len(late) != overdue {
		t.Fatalf("overdue: %d %q (want %d pairs)", code, out, overdue)
	}
	for _, a := range late {
		if a.Overdue <= 0 {
			t.Fatalf("not overdue: %+v", a)
		}
	}
}
