package jobs_test

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"net/http"
	"net/http/httptest"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"primeur/core"
	"primeur/core/accounts"
	"primeur/core/billing"
	"primeur/core/documents"
	"primeur/core/facturx/facturxtest"
	"primeur/core/jobs"
	"primeur/core/mail"
	"primeur/core/orders"
	"primeur/core/pa"
	"primeur/core/pa/patest"
	"primeur/core/store"
	"primeur/core/store/storetest"
	"primeur/core/trade/tradetest"
)

const paSecret = "s3cret-Du-Client-PA-7f3e"

// paMonth issues a month of documents of the farm: November 2026's
// invoices to three shops — the first with a credit note of an accepted
// claim —, and connects the farm to a local PA which rejects (213) the
// invoices to the second shop (SIREN 111222337) and lets the third (SIREN
// 555666775) refuse its own (210). It returns the job's Env and the PA.
// depositByHand deposits an issued invoice on the local PA as the job
// would, but outside it, with the fixture's connection: a flow the job
// did not make. It returns the client and the flow.
func depositByHand(t *testing.T, db *store.DB, srv *patest.Server, id string) (*pa.Client, pa.Flow) {
	t.Helper()
	inv, err := billing.Get(ctx, db, id)
	if err != nil {
		t.Fatal(err)
	}
	pdf, err := documents.Invoice(inv)
	if err != nil {
		t.Fatal(err)
	}
	client, err := pa.New(pa.Config{FlowURL: srv.FlowURL(), TokenURL: srv.TokenURL(), ClientID: "ferme-aravis", ClientSecret: paSecret})
	if err != nil {
		t.Fatal(err)
	}
	flow, err := client.Deposit(ctx, pa.Deposit{TrackingID: id, Name: inv.Number + ".pdf", File: pdf})
	if err != nil {
		t.Fatal(err)
	}
	return client, flow
}

func paMonth(t *testing.T, db *store.DB) (*tradetest.World, jobs.Env, *patest.Server) {
	t.Helper()
	w := tradetest.New(t, db)
	rejected := w.User(accounts.User{Type: accounts.Distributor, Email: "deux@magasin.fr", Name: "Deuxième magasin", SIRET: "11122233700003"})
	refusing := w.User(accounts.User{Type: accounts.Distributor, Email: "trois@magasin.fr", Name: "Troisième magasin", SIRET: "55566677500005"})
	line := tradetest.L{Product: "tomate", Price: 250, Expected: 2000}
	o := w.Order(w.Farm, w.Shop, "2026-11-01")
	w.Emailed(o, "2026-11-10", line)
	w.Played(o, "2026-11-13", tradetest.Outcome{Status: orders.Done, Claim: &tradetest.ClaimOutcome{
		SentAt: at(2026, 11, 13, 15, 0), Status: orders.ClaimAccepted, ReviewedAt: at(2026, 11, 13, 16, 0),
		Lines: map[string]tradetest.ClaimedLine{"tomate": {Quantity: -500, Type: orders.ClaimQuantity}},
	}}, line)
	w.Emailed(w.Order(w.Farm, rejected, "2026-11-01"), "2026-11-17", line)
	w.Emailed(w.Order(w.Farm, refusing, "2026-11-01"), "2026-11-24", line)
	dir := t.TempDir()
	e := env(db, mail.Outbox{Dir: filepath.Join(dir, "outbox"), From: "no-reply@primeur.local"})
	e.ClaimWait = -1
	e.PAKeys = pa.KeyPath(dir)
	run(t, jobs.Invoices, e, at(2026, 11, 30, 21, 0))

	// The directory knows the first shop; the second's platform no longer
	// receives, the third has no line.
	var lines []pa.DirectoryLine
	if err := json.Unmarshal([]byte(`[
		{"addressingIdentifier": "987654324", "siren": "987654324", "platform": {"platformType": "WK", "platformStatus": "Enabled"}},
		{"addressingIdentifier": "111222337", "siren": "111222337", "platform": {"platformType": "WK", "platformStatus": "Disabled"}}
	]`), &lines); err != nil {
		t.Fatal(err)
	}
	srv, err := patest.Start(patest.Config{ClientID: "ferme-aravis", ClientSecret: paSecret, Directory: lines, Rule: func(inv patest.Invoice) patest.Decision {
		switch inv.Buyer {
		case "111222337":
			return patest.Decision{Outcome: patest.Reject, ReasonCode: "DOUBLON", Reason: "Facture en doublon (déjà émise / reçue)"}
		case "555666775":
			return patest.Decision{Outcome: patest.Refuse, ReasonCode: "NON_CONFORME", Reason: "Marchandise non conforme"}
		}
		return patest.Decision{}
	}})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() {
		srv.Close()
		if bad := srv.Invalid(); len(bad) > 0 {
			t.Errorf("against the Flow Service's OpenAPI document: %q", bad)
		}
	})
	keys, err := pa.EnsureKeys(e.PAKeys)
	if err != nil {
		t.Fatal(err)
	}
	if err := pa.Connect(ctx, db, keys, pa.Connection{ProducerID: w.Farm.ID, FlowURL: srv.FlowURL(), TokenURL: srv.TokenURL(),
		DirectoryURL: srv.DirectoryURL(), ClientID: "ferme-aravis", Secret: paSecret,
		ConnectedAt: at(2026, 11, 1, 0, 0), DepositFrom: at(2026, 11, 1, 0, 0)}); err != nil {
		t.Fatal(err)
	}
	return w, e, srv
}

func documentIDs(t *testing.T, db *store.DB, producer string) []string {
	t.Helper()
	var ids []string
	if err := store.Select(ctx, db, &ids, `SELECT id FROM documents WHERE producer_id = ? ORDER BY id`, producer); err != nil {
		t.Fatal(err)
	}
	return ids
}

// statusLines is each document's number, flow, status and history, as
// `primeur pa status` reads them.
func statusLines(t *testing.T, db *store.DB) []string {
	t.Helper()
	docs, err := pa.Documents(ctx, db, "")
	if err != nil {
		t.Fatal(err)
	}
	var out []string
	for _, d := range docs {
		s := d.Number + " " + d.Label
		if d.FlowID == "" {
			s += " (pas de flux)"
		}
		for _, h := range d.History {
			s += " | " + h.Label
			if h.ReasonCode != "" {
				s += " " + h.ReasonCode + " : " + h.Reason
			}
		}
		out = append(out, s)
	}
	return out
}

// TestPAJobDepositsAMonthOnce: a month's documents — three invoices and a
// credit note — are deposited once each by two runs at the same time,
// every file's SHA-256 and Factur-X checked by the local PA; the 213 and
// the 210 the PA returns become the documents' statuses, with their
// reasons, and a third run deposits nothing more and reads nothing twice.
func TestPAJobDepositsAMonthOnce(t *testing.T) {
	t.Parallel()
	storetest.Each(t, func(t *testing.T, db *store.DB) {
		w, e, srv := paMonth(t, db)
		ids := documentIDs(t, db, w.Farm.ID)
		if len(ids) != 4 {
			t.Fatalf("%d documents", len(ids))
		}
		var deposited, statuses atomic.Int64
		var wg sync.WaitGroup
		for range 2 {
			wg.Go(func() {
				r, err := jobs.PA(ctx, e, at(2026, 12, 1, 6, 0))
				if err != nil {
					t.Error(err)
				}
				deposited.Add(int64(r.Get(jobs.PADeposited)))
				statuses.Add(int64(r.Get(jobs.PAStatuses)))
			})
		}
		wg.Wait()
		if deposited.Load() != 4 {
			t.Fatalf("deposited %d", deposited.Load())
		}
		got := srv.Deposits()
		for _, id := range ids {
			if got[id] != 1 {
				t.Fatalf("document %s deposited %d times: %v", id, got[id], got)
			}
		}
		if len(got) != 4 {
			t.Fatalf("deposits %v", got)
		}
		for _, f := range srv.Flows() {
			if f.FlowDirection == pa.DirectionOut && (f.Ack == nil || f.Ack.Status != pa.AckOk) {
				t.Fatalf("flow %s of %s: %+v", f.FlowID, f.TrackingID, f.Ack)
			}
		}
		// A run after them reads whatever statuses the two left to the
		// other, deposits nothing, and a fourth reads nothing new.
		r := run(t, jobs.PA, e, at(2026, 12, 1, 6, 5))
		if r.Get(jobs.PADeposited) != 0 || statuses.Load()+int64(r.Get(jobs.PAStatuses)) != 5 {
			t.Fatalf("third run %s (statuses before %d) %q", r, statuses.Load(), statusLines(t, db))
		}
		if r := run(t, jobs.PA, e, at(2026, 12, 1, 6, 10)); r.String() != "documents déposés sur la plateforme agréée : 0, statuts reçus de la plateforme agréée : 0" {
			t.Fatalf("fourth run %s", r)
		}
		want := []string{
			"AV-2026-000001 Déposée | Déposée",
			"FA-2026-000001 Déposée | Déposée",
			"FA-2026-000002 Rejetée | Rejetée DOUBLON : Facture en doublon (déjà émise / reçue)",
			"FA-2026-000003 Refusée | Déposée | Refusée NON_CONFORME : Marchandise non conforme",
		}
		lines := statusLines(t, db)
		slices.Sort(lines)
		if !slices.Equal(lines, want) {
			t.Fatalf("statuses\n%q\nwant\n%q", lines, want)
		}
		// The directory was asked once per buyer before the deposits: the
		// documents to the shops it does not know (or whose platform does
		// not receive) are deposited all the same, and say so.
		sts, err := pa.StatusesOf(ctx, db, ids)
		if err != nil {
			t.Fatal(err)
		}
		var dirs []string
		for _, id := range ids {
			var buyer string
			if err := store.Get(ctx, db, &buyer, `SELECT u.name FROM documents d JOIN users u ON u.id = d.distributor_id WHERE d.id = ?`, id); err != nil {
				t.Fatal(err)
			}
			dirs = append(dirs, buyer+": "+sts[id].Directory)
		}
		slices.Sort(dirs)
		if want := []string{"Deuxième magasin: absent", "Troisième magasin: absent", w.Shop.Name + ": found", w.Shop.Name + ": found"}; !slices.Equal(dirs, want) {
			t.Fatalf("directory %q, want %q", dirs, want)
		}
		if got := srv.DirectorySearches(); got < 3 || got > 6 {
			t.Fatalf("%d directory searches for 3 buyers in two runs", got)
		}
		// Every deposited file is a Factur-X EN 16931 the kit validates
		// (make test).
		for _, f := range srv.Flows() {
			if f.FlowDirection == pa.DirectionOut {
				raw, err := pa.New(pa.Config{FlowURL: srv.FlowURL(), TokenURL: srv.TokenURL(), ClientID: "ferme-aravis", ClientSecret: paSecret})
				if err != nil {
					t.Fatal(err)
				}
				b, err := raw.Original(ctx, f.FlowID)
				if err != nil || pa.SHA256(b) != f.SHA256 {
					t.Fatalf("original of %s: %v", f.FlowID, err)
				}
				facturxtest.Keep(t, f.Name, b)
			}
		}
	})
}

// TestPAJobAfterAKill: a process killed after its POST reached the PA left
// its claim and in_flight_at: the next run finds the flow by trackingId
// and records it, without a second deposit; one killed before its POST
// reached the PA left the same, and the next run deposits it, once.
func TestPAJobAfterAKill(t *testing.T) {
	t.Parallel()
	storetest.Each(t, func(t *testing.T, db *store.DB) {
		w, e, srv := paMonth(t, db)
		var reached, lost string
		if err := store.Get(ctx, db, &reached, `SELECT id FROM documents WHERE number = 'FA-2026-000001'`); err != nil {
			t.Fatal(err)
		}
		if err := store.Get(ctx, db, &lost, `SELECT id FROM documents WHERE number = 'FA-2026-000002'`); err != nil {
			t.Fatal(err)
		}
		_, first := depositByHand(t, db, srv, reached)
		// The dead run's claims: no row of mail_senders, claimed long ago.
		long := time.Now().Add(-time.Hour).UnixMilli()
		for _, id := range []string{reached, lost} {
			w.Exec(`INSERT INTO pa_deposits (document_id, producer_id, claim, claimed_at, in_flight_at) VALUES (?, ?, 'dead-run', ?, ?)`,
				id, w.Farm.ID, long, long)
		}
		r := run(t, jobs.PA, e, at(2026, 12, 1, 6, 0))
		if r.Get(jobs.PADeposited) != 4 {
			t.Fatalf("run %s", r)
		}
		got := srv.Deposits()
		if got[reached] != 1 || got[lost] != 1 || len(got) != 4 {
			t.Fatalf("deposits %v", got)
		}
		var flow string
		if err := store.Get(ctx, db, &flow, `SELECT flow_id FROM pa_deposits WHERE document_id = ?`, reached); err != nil || flow != first.FlowID {
			t.Fatalf("flow %q, want the first deposit's %q (%v)", flow, first.FlowID, err)
		}
	})
}

// TestPAJobRetriesThenLeaves: a PA that does not answer fails the deposit;
// the run then leaves the other documents for the next (each would wait
// for the same timeout). A failed document waits 1, 4, 16, 64 minutes
// between tries, each failure counted and said in French, and the fifth
// leaves it for an administrator (the Observer hears it): never tried
// again.
func TestPAJobRetriesThenLeaves(t *testing.T) {
	t.Parallel()
	storetest.Each(t, func(t *testing.T, db *store.DB) {
		w, e, srv := paMonth(t, db)
		srv.Close() // the PA is gone
		wall := time.Now().Truncate(time.Millisecond)
		e.Clock = func() time.Time { return wall }
		var left, failed atomic.Int64
		e.Observe.DepositLeft = func() { left.Add(1) }
		e.Observe.DepositFailed = func() { failed.Add(1) }
		retry := func(number string) (int, time.Duration) {
			t.Helper()
			var attempts int
			var at int64
			if err := store.Get(ctx, db, &attempts, `SELECT p.attempts FROM pa_deposits p JOIN documents d ON d.id = p.document_id WHERE d.number = ?`, number); err != nil {
				t.Fatal(err)
			}
			if err := store.Get(ctx, db, &at, `SELECT p.retry_at FROM pa_deposits p JOIN documents d ON d.id = p.document_id WHERE d.number = ?`, number); err != nil {
				t.Fatal(err)
			}
			return attempts, time.UnixMilli(at).Sub(wall)
		}
		// One document a run, the first waiting its minute while the
		// second is tried.
		if r := run(t, jobs.PA, e, at(2026, 12, 1, 6, 0)); r.Get(jobs.PAFailed) != 1 || r.Get(jobs.PADeposited) != 0 {
			t.Fatalf("first run %s", r)
		}
		if n, wait := retry("FA-2026-000001"); n != 1 || wait != time.Minute {
			t.Fatalf("after one failure: %d attempts, waits %v", n, wait)
		}
		if r := run(t, jobs.PA, e, at(2026, 12, 1, 6, 0)); r.Get(jobs.PAFailed) != 1 {
			t.Fatalf("second run %s", r)
		}
		if n, _ := retry("FA-2026-000001"); n != 1 {
			t.Fatalf("tried again before its minute: %d attempts", n)
		}
		for _, want := range []time.Duration{4 * time.Minute, 16 * time.Minute, 64 * time.Minute} {
			wall = wall.Add(2 * time.Hour) // every wait over: the first goes first
			run(t, jobs.PA, e, at(2026, 12, 1, 6, 0))
			if _, wait := retry("FA-2026-000001"); wait != want {
				t.Fatalf("waits %v, want %v", wait, want)
			}
		}
		for i := 0; ; i++ {
			wall = wall.Add(2 * time.Hour)
			r := run(t, jobs.PA, e, at(2026, 12, 1, 6, 0))
			if r.Get(jobs.PAFailed) == 0 {
				break
			}
			if i > 40 {
				t.Fatal("the failures never end")
			}
		}
		if left.Load() != 4 || failed.Load() != 20 {
			t.Fatalf("observer: left %d, failed %d", left.Load(), failed.Load())
		}
		docs, err := pa.Documents(ctx, db, w.Farm.ID)
		if err != nil {
			t.Fatal(err)
		}
		for _, d := range docs {
			if d.Attempts != jobs.MaxDeposits || d.FlowID != "" ||
				d.Error != "L'obtention du jeton d'accès auprès de la plateforme agréée a échoué : la plateforme ne répond pas (adresse erronée, réseau ou délai dépassé)." {
				t.Fatalf("%+v", d)
			}
		}
	})
}

// TestPASecretNotInTheDatabase: the client secret is stored sealed: the
// SQLite file's bytes (and its WAL's) do not hold it, and the secret opens
// only with the key file.
func TestPASecretNotInTheDatabase(t *testing.T) {
	t.Parallel()
	db := storetest.SQLite(t)
	w, e, _ := paMonth(t, db)
	if _, err := db.ExecContext(ctx, `PRAGMA wal_checkpoint(FULL)`); err != nil {
		t.Fatal(err)
	}
	for _, path := range []string{db.Name, db.Name + "-wal"} {
		b, err := os.ReadFile(path)
		if os.IsNotExist(err) {
			continue
		}
		if err != nil {
			t.Fatal(err)
		}
		if bytes.Contains(b, []byte(paSecret)) {
			t.Fatalf("%s holds the secret in clear", path)
		}
	}
	var sealed string
	if err := store.Get(ctx, db, &sealed, `SELECT client_secret FROM pa_connections WHERE producer_id = ?`, w.Farm.ID); err != nil {
		t.Fatal(err)
	}
	if !strings.HasPrefix(sealed, "v1:") || strings.Contains(sealed, paSecret) {
		t.Fatalf("stored %q", sealed)
	}
	conns, err := pa.Connections(ctx, db, nil)
	if err != nil || len(conns) != 1 || conns[0].Secret != "" || !pa.IsNoKey(conns[0].SecretErr) {
		t.Fatalf("without the key: %+v %v", conns, err)
	}
	keys, err := pa.LoadKeys(e.PAKeys)
	if err != nil {
		t.Fatal(err)
	}
	if conns, _ = pa.Connections(ctx, db, keys); conns[0].Secret != paSecret {
		t.Fatal("the key does not open the secret")
	}
	// Rotated: every secret sealed again with the new key, which alone
	// opens them once the old line is gone.
	keys, err = pa.Rotate(e.PAKeys)
	if err != nil {
		t.Fatal(err)
	}
	if n, err := pa.Reseal(ctx, db, keys); err != nil || n != 1 {
		t.Fatalf("reseal %d %v", n, err)
	}
	raw, _ := os.ReadFile(e.PAKeys)
	var kept []string
	for _, l := range strings.Split(string(raw), "\n") {
		if strings.HasPrefix(l, keys.Current()+" ") || strings.HasPrefix(l, "#") {
			kept = append(kept, l)
		}
	}
	if err := os.WriteFile(e.PAKeys, []byte(strings.Join(kept, "\n")+"\n"), 0o600); err != nil {
		t.Fatal(err)
	}
	keys, err = pa.LoadKeys(e.PAKeys)
	if err != nil {
		t.Fatal(err)
	}
	if conns, _ = pa.Connections(ctx, db, keys); conns[0].Secret != paSecret {
		t.Fatalf("after rotation: %v", conns[0].SecretErr)
	}
}

// TestPAJobDryRun: the dry run lists what the run would deposit, calls no
// PA and writes nothing.
func TestPAJobDryRun(t *testing.T) {
	t.Parallel()
	storetest.Each(t, func(t *testing.T, db *store.DB) {
		_, e, srv := paMonth(t, db)
		job, _ := jobs.Find("pa")
		before := storetest.Snapshot(t, db)
		r, _, err := job.DryRun(ctx, e, at(2026, 12, 1, 6, 0))
		if err != nil {
			t.Fatal(err)
		}
		if after := storetest.Snapshot(t, db); after != before {
			t.Fatalf("the dry run wrote:\n%s", storetest.Changes(before, after))
		}
		if len(srv.Deposits()) != 0 || r.Get(jobs.PADeposited) != 4 || len(r.Deposits) != 4 ||
			!strings.HasPrefix(r.Deposits[0], "facture FA-2026-000001 : Ferme des Aravis → Épicerie du Lac, ") ||
			!strings.HasSuffix(r.Deposits[0], " → "+srv.FlowURL()) {
			t.Fatalf("%s %q", r, r.Deposits)
		}
	})
}

// TestPAJobIrrecevable: a file the PA finds is no Factur-X is deposited
// (202) but acknowledged Error: its status is Irrecevable with the
// standard's reason code and its French, and it is not deposited again.
func TestPAJobIrrecevable(t *testing.T) {
	t.Parallel()
	storetest.Each(t, func(t *testing.T, db *store.DB) {
		w, e, srv := paMonth(t, db)
		e.Render.Invoice = func(inv billing.Invoice) ([]byte, error) {
			return []byte("%PDF-1.7\n% not a Factur-X: " + inv.Number + "\n"), nil
		}
		if r := run(t, jobs.PA, e, at(2026, 12, 1, 6, 0)); r.Get(jobs.PADeposited) != 4 || r.Get(jobs.PAStatuses) != 4 {
			t.Fatalf("run %s", r)
		}
		docs, err := pa.Documents(ctx, db, w.Farm.ID)
		if err != nil {
			t.Fatal(err)
		}
		for _, d := range docs {
			if d.Status != pa.StatusIrrecevable || d.Label != "Irrecevable" || len(d.History) != 1 ||
				d.History[0].ReasonCode != pa.ReasonInvalidSchema || d.History[0].Reason != "le fichier ne respecte pas le schéma XML de la facture" {
				t.Fatalf("%+v", d)
			}
		}
		if r := run(t, jobs.PA, e, at(2026, 12, 1, 6, 5)); r.Get(jobs.PADeposited) != 0 || r.Get(jobs.PAStatuses) != 0 || len(srv.Deposits()) != 4 {
			t.Fatalf("second run %s, deposits %v", r, srv.Deposits())
		}
	})
}

// TestPAWebhook: the PA's webhook calls, with the connection's token,
// record a status without waiting for the job: the buyer's refusal (210)
// of an invoice deposited earlier. A wrong token, a body naming no flow,
// another producer: refused, nothing recorded. A forged body naming a
// flow records only what the PA itself says of that flow.
func TestPAWebhook(t *testing.T) {
	t.Parallel()
	storetest.Each(t, func(t *testing.T, db *store.DB) {
		w, e, srv := paMonth(t, db)
		run(t, jobs.PA, e, at(2026, 12, 1, 6, 0))
		keys, err := pa.LoadKeys(e.PAKeys)
		if err != nil {
			t.Fatal(err)
		}
		token := keys.WebhookToken(w.Farm.ID)
		var mu sync.Mutex
		var answers []string
		hook := httptest.NewServer(http.HandlerFunc(func(rw http.ResponseWriter, r *http.Request) {
			body, _ := io.ReadAll(r.Body)
			n, err := jobs.PANotified(r.Context(), e, w.Farm.ID, strings.TrimPrefix(r.Header.Get("Authorization"), "Bearer "), body)
			mu.Lock()
			answers = append(answers, fmt.Sprintf("%d %v", n, err))
			mu.Unlock()
		}))
		defer hook.Close()
		srv.SetWebhook(hook.URL, token)
		if err := srv.SetStatus("123456782", "FA-2026-000001", pa.StatusRefused,
			patest.Decision{ReasonCode: "NON_COMMANDE", Reason: "Marchandise non commandée"}); err != nil {
			t.Fatal(err)
		}
		srv.WaitWebhooks()
		if !slices.Equal(answers, []string{"1 <nil>"}) {
			t.Fatalf("webhook answers %q", answers)
		}
		lines := statusLines(t, db)
		if !slices.Contains(lines, "FA-2026-000001 Refusée | Déposée | Refusée NON_COMMANDE : Marchandise non commandée") {
			t.Fatalf("%q", lines)
		}
		flows := srv.Flows()
		last := flows[len(flows)-1].FlowID
		body := []byte(`{"flowInfo":{"flowId":"` + last + `"}}`)
		for _, tc := range []struct {
			producer, token string
			body            []byte
			want            error
		}{
			{w.Farm.ID, "faux", body, core.ErrUnauthenticated},
			{w.Shop.ID, token, body, core.ErrUnauthenticated}, // the farm's token is not the shop's
			{w.Farm.ID, token, []byte(`{"flowInfo":{}}`), nil},
			{w.Farm.ID, token, bytes.Repeat([]byte(" "), jobs.MaxWebhook+1), core.ErrTooLarge},
		} {
			n, err := jobs.PANotified(ctx, e, tc.producer, tc.token, tc.body)
			var v *core.ValidationError
			if n != 0 || (tc.want != nil && !errors.Is(err, tc.want)) || (tc.want == nil && !errors.As(err, &v)) {
				t.Fatalf("%s %q: %d %v", tc.producer, tc.token, n, err)
			}
		}
		// The same call again records nothing new.
		if n, err := jobs.PANotified(ctx, e, w.Farm.ID, token, body); n != 0 || err != nil {
			t.Fatalf("again: %d %v", n, err)
		}
		if after := statusLines(t, db); !slices.Equal(after, lines) {
			t.Fatalf("changed:\n%q\n%q", lines, after)
		}
	})
}

// TestPARetryDeposits: the deposits left for an administrator get their
// attempts back and the next run, the PA back, deposits them once.
func TestPARetryDeposits(t *testing.T) {
	t.Parallel()
	storetest.Each(t, func(t *testing.T, db *store.DB) {
		w, e, srv := paMonth(t, db)
		w.Exec(`INSERT INTO pa_deposits (document_id, producer_id, attempts, retry_at, error)
			SELECT id, producer_id, ?, 0, 'x' FROM documents WHERE producer_id = ?`, jobs.MaxDeposits, w.Farm.ID)
		if r := run(t, jobs.PA, e, at(2026, 12, 1, 6, 0)); r.Get(jobs.PADeposited) != 0 {
			t.Fatalf("left documents deposited: %s", r)
		}
		n, err := jobs.RetryDeposits(ctx, db)
		if err != nil || n != 4 {
			t.Fatalf("retry %d %v", n, err)
		}
		if r := run(t, jobs.PA, e, at(2026, 12, 1, 6, 5)); r.Get(jobs.PADeposited) != 4 || len(srv.Deposits()) != 4 {
			t.Fatalf("after the retry: %s %v", r, srv.Deposits())
		}
		if n, err := jobs.RetryDeposits(ctx, db); err != nil || n != 0 {
			t.Fatalf("nothing left: %d %v", n, err)
		}
	})
}

// TestPASecondFlowIsNotTheDocuments: a document deposited twice (a process
// frozen past its lease between marking its POST and making it, while
// another deposited it) has its second flow refused by the PA
// (AlreadyExistingFlow); that refusal does not become the document's
// status, which stays its first flow's.
func TestPASecondFlowIsNotTheDocuments(t *testing.T) {
	t.Parallel()
	storetest.Each(t, func(t *testing.T, db *store.DB) {
		_, e, srv := paMonth(t, db)
		run(t, jobs.PA, e, at(2026, 12, 1, 6, 0))
		var id, first string
		if err := store.Get(ctx, db, &id, `SELECT id FROM documents WHERE number = 'FA-2026-000001'`); err != nil {
			t.Fatal(err)
		}
		if err := store.Get(ctx, db, &first, `SELECT flow_id FROM pa_deposits WHERE document_id = ?`, id); err != nil {
			t.Fatal(err)
		}
		client, second := depositByHand(t, db, srv, id)
		if flows, _ := client.Search(ctx, pa.Filter{TrackingID: id}); len(flows) != 2 || flows[1].FlowID != second.FlowID ||
			flows[1].Ack == nil || flows[1].Ack.Status != pa.AckError || flows[1].Ack.Details[0].Code != pa.ReasonAlreadyExistingFlow {
			t.Fatalf("the PA's flows of %s: %+v", id, flows)
		}
		if r := run(t, jobs.PA, e, at(2026, 12, 1, 6, 5)); r.Get(jobs.PAStatuses) != 0 {
			t.Fatalf("run %s", r)
		}
		if lines := statusLines(t, db); !slices.Contains(lines, "FA-2026-000001 Déposée | Déposée") {
			t.Fatalf("%q", lines)
		}
		if err := store.Get(ctx, db, &id, `SELECT flow_id FROM pa_deposits WHERE document_id = ?`, id); err != nil || id != first {
			t.Fatalf("flow %q, want %q (%v)", id, first, err)
		}
	})
}
