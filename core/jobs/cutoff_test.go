package jobs_test

import (
	"strings"
	"sync"
	"testing"

	"primeur/core/accounts"
	"primeur/core/jobs"
	"primeur/core/mail"
	"primeur/core/mail/mailtest"
	"primeur/core/store"
	"primeur/core/store/storetest"
	"primeur/core/trade/tradetest"
)

// TestCutoffReminders: from the 25th, a producer with delivery days is
// emailed, once whatever the runs and replicas, the shops' needs of next
// month still open for the products it sold — not those of other
// products, not those it already proposed on, not those fully covered —;
// a producer who turned it off, or without delivery days, gets nothing.
// It goes to the producer's owners and sellers whose login is confirmed,
// whether or not its founder's is (issue 41: the rival's seller gets it,
// its founder unconfirmed); a producer none of whom confirmed gets none.
func TestCutoffReminders(t *testing.T) {
	t.Parallel()
	storetest.Each(t, func(t *testing.T, db *store.DB) {
		w := tradetest.New(t, db)
		rival := w.User(accounts.User{Type: accounts.Producer, Email: "rival@ferme.fr", Name: "Rival", DeliveryDays: "1000000"})
		quiet := w.User(accounts.User{Type: accounts.Producer, Email: "calme@ferme.fr", Name: "Calme", DeliveryDays: "1000000", CutoffOptOut: true})
		idle := w.User(accounts.User{Type: accounts.Producer, Email: "repos@ferme.fr", Name: "Repos", DeliveryDays: "0000000"})
		mute := w.User(accounts.User{Type: accounts.Producer, Email: "muet@ferme.fr", Name: "Muet", DeliveryDays: "1000000"})
		for _, table := range []string{"users", "people"} {
			w.Exec(`UPDATE `+table+` SET email_confirmed = '' WHERE id IN (?, ?)`, rival.ID, mute.ID)
		}
		w.Exec(`INSERT INTO people (id, email, email_key, email_confirmed, name, password_hash, created_at, updated_at)
			VALUES ('vente', 'vente@ferme.fr', 'vente@ferme.fr', 'vente@ferme.fr', 'Vente', '', 0, 0)`)
		w.Exec(`INSERT INTO members (person_id, org_id, role, created_at, updated_at) VALUES ('vente', ?, 'sales', 0, 0)`, rival.ID)
		need := func(id, product, month string, qty int) {
			w.Exec(`INSERT INTO needs (id, distributor_id, product_id, month, quantity, created_at, updated_at) VALUES (?, ?, ?, ?, ?, 0, 0)`,
				id, w.Shop.ID, product, month, qty)
		}
		proposal := func(needID, producer, status string, qty int) {
			w.Exec(`INSERT INTO proposals (id, need_id, producer_id, status, origin, quantity, price, created_at, updated_at)
				VALUES (?, ?, ?, ?, 'producer', ?, 250, 0, 0)`, needID+producer, needID, producer, status, qty)
		}
		// What each producer sold in October.
		need("oct-tomate", "tomate", "2026-10-01", 10000)
		need("oct-poire", "poire", "2026-10-01", 10000)
		for _, p := range []accounts.User{w.Farm, quiet, idle, mute} {
			proposal("oct-tomate", p.ID, "accepted", 1000)
		}
		proposal("oct-poire", w.Farm.ID, "accepted", 1000)
		proposal("oct-poire", rival.ID, "accepted", 1000)
		// December: 300 kg of tomatoes, 100 committed to the rival; pears
		// the farm already proposed on; leeks nobody sold; carrots covered.
		need("dec-tomate", "tomate", "2026-12-01", 30000)
		proposal("dec-tomate", rival.ID, "accepted", 10000)
		need("dec-poire", "poire", "2026-12-01", 8000)
		proposal("dec-poire", w.Farm.ID, "proposed", 5000)
		need("dec-poireau", "poireau", "2026-12-01", 5000)
		need("dec-pomme", "pomme", "2026-12-01", 2000)

		srv := mailtest.Start(t, "", "")
		e := env(db, mail.SMTP{Config: srv.Config()})
		if r := run(t, jobs.Cutoff, e, at(2026, 11, 24, 8, 0)); r.Get(jobs.CutoffsCreated) != 0 {
			t.Fatalf("on the 24th: %s", r)
		}
		var wg sync.WaitGroup
		for range 3 {
			e := env(tradetest.Handle(t, db), mail.SMTP{Config: srv.Config()})
			wg.Add(1)
			go func() {
				defer wg.Done()
				if _, err := jobs.Cutoff(ctx, e, at(2026, 11, 25, 8, 0)); err != nil {
					t.Error(err)
				}
			}()
		}
		wg.Wait()
		if r := run(t, jobs.Cutoff, e, at(2026, 11, 26, 8, 0)); r.Get(jobs.CutoffsCreated) != 0 || r.Get(jobs.CutoffsSent) != 0 {
			t.Fatalf("on the 26th: %s", r)
		}
		msgs := srv.Merged(t)
		if len(msgs) != 2 {
			var to []string
			for _, m := range msgs {
				to = append(to, m.To...)
			}
			t.Fatalf("%d reminders, to %v; want the farm's and the rival's", len(msgs), to)
		}
		byTo := map[string]string{}
		for _, m := range msgs {
			if len(m.To) != 1 || m.Subject != "Besoins ouverts pour décembre 2026" {
				t.Fatalf("reminder %q to %v", m.Subject, m.To)
			}
			byTo[m.To[0]] = m.Body
		}
		farm := byTo["ferme@aravis.fr"]
		if !strings.Contains(farm, "- Épicerie du Lac : Tomate 200 kg\r\n") || strings.Contains(farm, "Poire") ||
			strings.Contains(farm, "Poireau") || !strings.Contains(farm, "« Rappel du 25 »") {
			t.Fatalf("the farm's reminder:\n%s", farm)
		}
		if rivalBody := byTo["vente@ferme.fr"]; !strings.Contains(rivalBody, "- Épicerie du Lac : Poire 30 kg\r\n") || strings.Contains(rivalBody, "Tomate") {
			t.Fatalf("the rival's reminder:\n%s", rivalBody)
		}
	})
}
