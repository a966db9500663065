package jobs_test

import (
	"errors"
	"fmt"
	"regexp"
	"strings"
	"sync"
	"testing"
	"time"

	"primeur/core"
	"primeur/core/accounts"
	"primeur/core/closure"
	"primeur/core/jobs"
	"primeur/core/mail"
	"primeur/core/mail/mailtest"
	"primeur/core/notify"
	"primeur/core/store"
	"primeur/core/store/storetest"
	"primeur/core/trade"
	"primeur/core/trade/tradetest"
)

// TestDigests: a producer's proposal on a shop's need is gathered, with
// the other notifications of the hour, into one digest per user, emailed
// once whatever the replicas running the job at the same moment, with a
// link that opens the need and a List-Unsubscribe address; within the hour
// what follows waits; a daily kind waits for 7h; a kind turned off is
// dropped; an unconfirmed address gets nothing until it is confirmed.
func TestDigests(t *testing.T) {
	t.Parallel()
	storetest.Each(t, func(t *testing.T, db *store.DB) {
		w := tradetest.New(t, db)
		srv := mailtest.Start(t, "", "")
		e := env(db, mail.SMTP{Config: srv.Config()})
		need := w.Need(w.Shop.ID, "tomate", "2026-12-01", 20000)
		ten := at(2026, 11, 26, 10, 0)
		if _, err := trade.Propose(ctx, db, w.Farm, need, w.Farm.ID, trade.Offer{Quantity: 120, Price: 2.5}, ten); err != nil {
			t.Fatal(err)
		}
		queue := func(userID, kind, line string, when int) {
			t.Helper()
			if err := notify.Queue(ctx, db, notify.Item{UserID: userID, Kind: kind, Line: line, Link: "/x", At: ten}); err != nil {
				t.Fatal(err)
			}
		}
		queue(w.Shop.ID, notify.Claim, "Une réclamation.", 0)

		// Three replicas at once: one digest for the shop, one email.
		var wg sync.WaitGroup
		for range 3 {
			e := env(tradetest.Handle(t, db), mail.SMTP{Config: srv.Config()})
			wg.Add(1)
			go func() {
				defer wg.Done()
				if _, err := jobs.Notifications(ctx, e, ten.Add(5*60e9)); err != nil {
					t.Error(err)
				}
			}()
		}
		wg.Wait()
		msgs := srv.Merged(t)
		if len(msgs) != 1 || len(msgs[0].To) != 1 || msgs[0].To[0] != "epicerie@lac.fr" {
			t.Fatalf("%d digests: %+v", len(msgs), msgs)
		}
		d := msgs[0]
		if d.Subject != "Primeur : 2 nouveautés attendent votre réponse" ||
			!strings.Contains(d.Body, "Propositions et contre-propositions à examiner\r\n- Ferme des Aravis vous propose 120 kg de Tomate à 2,50\u00a0€ / kg pour décembre 2026.\r\n  https://primeur.example/dis/needs?need="+need+"\r\n") ||
			!strings.Contains(d.Body, "Réclamations à examiner\r\n- Une réclamation.") ||
			strings.Index(d.Body, "Propositions") > strings.Index(d.Body, "Réclamations") {
			t.Fatalf("digest %q:\n%s", d.Subject, d.Body)
		}
		unsub := d.Header.Get("List-Unsubscribe")
		if !strings.HasPrefix(unsub, "<https://primeur.example/auth/unsubscribe/one-click?t=") ||
			d.Header.Get("List-Unsubscribe-Post") != "List-Unsubscribe=One-Click" {
			t.Fatalf("List-Unsubscribe %q, Post %q", unsub, d.Header.Get("List-Unsubscribe-Post"))
		}

		// Within the hour, a new line waits; past it, it goes.
		queue(w.Shop.ID, notify.Proposal, "Une autre proposition.", 0)
		if r := run(t, jobs.Notifications, e, ten.Add(50*60e9)); r.Get(jobs.DigestsMade) != 0 {
			t.Fatalf("within the hour: %s", r)
		}
		if r := run(t, jobs.Notifications, e, ten.Add(66*60e9)); r.Get(jobs.DigestsMade) != 1 || r.Get(jobs.DigestsSent) != 1 {
			t.Fatalf("past the hour: %s", r)
		}

		// A daily kind waits for 7h the next day, then goes once.
		if err := notify.SetPref(ctx, db, w.Farm.ID, w.Farm.ID, notify.Answer, notify.Daily); err != nil {
			t.Fatal(err)
		}
		if _, err := trade.Review(ctx, db, w.Shop, need, w.Farm.ID, true, ten.Add(2*3600e9)); err != nil {
			t.Fatal(err)
		}
		if r := run(t, jobs.Notifications, e, at(2026, 11, 26, 23, 0)); r.Get(jobs.DigestsMade) != 0 {
			t.Fatalf("daily kind, in the evening: %s", r)
		}
		if r := run(t, jobs.Notifications, e, at(2026, 11, 27, 6, 55)); r.Get(jobs.DigestsMade) != 0 {
			t.Fatalf("daily kind, before 7h: %s", r)
		}
		if r := run(t, jobs.Notifications, e, at(2026, 11, 27, 7, 0)); r.Get(jobs.DigestsMade) != 1 {
			t.Fatalf("daily kind, at 7h: %s", r)
		}
		farm := srv.Merged(t)[2]
		if farm.To[0] != "ferme@aravis.fr" || !strings.Contains(farm.Body, "depuis hier") ||
			!strings.Contains(farm.Body, "Épicerie du Lac a accepté votre proposition : 120 kg de Tomate") ||
			!strings.Contains(farm.Body, "https://primeur.example/prod/needs/"+w.Shop.ID+"?need="+need) {
			t.Fatalf("the farm's daily digest:\n%s", farm.Body)
		}

		// Turned off: dropped, never sent.
		if err := notify.SetPref(ctx, db, w.Shop.ID, w.Shop.ID, notify.Note, notify.None); err != nil {
			t.Fatal(err)
		}
		queue(w.Shop.ID, notify.Note, "Un bon de livraison.", 0)
		if r := run(t, jobs.Notifications, e, at(2026, 11, 28, 10, 0)); r.Get(jobs.DigestsMade) != 0 {
			t.Fatalf("kind turned off: %s", r)
		}
		var pending int
		if err := store.Get(ctx, db, &pending, `SELECT COUNT(*) FROM notifications WHERE digest_id IS NULL`); err != nil || pending != 0 {
			t.Fatalf("%d lines left pending (%v)", pending, err)
		}

		// Unconfirmed: waits, and goes once confirmed.
		w.Exec(`UPDATE users SET email_confirmed = '' WHERE id = ?`, w.Shop.ID)
		w.Exec(`UPDATE people SET email_confirmed = '' WHERE id = ?`, w.Shop.ID)
		queue(w.Shop.ID, notify.Claim, "Encore une réclamation.", 0)
		if r := run(t, jobs.Notifications, e, at(2026, 11, 28, 12, 0)); r.Get(jobs.DigestsMade) != 0 {
			t.Fatalf("unconfirmed: %s", r)
		}
		w.Exec(`UPDATE users SET email_confirmed = email_key WHERE id = ?`, w.Shop.ID)
		w.Exec(`UPDATE people SET email_confirmed = email_key WHERE id = ?`, w.Shop.ID)
		if r := run(t, jobs.Notifications, e, at(2026, 11, 28, 12, 5)); r.Get(jobs.DigestsSent) != 1 {
			t.Fatalf("confirmed: %s", r)
		}
		if got := len(srv.Merged(t)); got != 4 {
			t.Fatalf("%d digests in all, want 4", got)
		}
	})
}

// TestUnsubscribeLink: the link of a digest turns its kinds off without
// login; a token altered anywhere, or made for another user, is refused
// and changes nothing.
func TestUnsubscribeLink(t *testing.T) {
	t.Parallel()
	storetest.Each(t, func(t *testing.T, db *store.DB) {
		w := tradetest.New(t, db)
		srv := mailtest.Start(t, "", "")
		e := env(db, mail.SMTP{Config: srv.Config()})
		ten := at(2026, 11, 26, 10, 0)
		for _, kind := range []string{notify.Proposal, notify.Claim} {
			if err := notify.Queue(ctx, db, notify.Item{UserID: w.Shop.ID, Kind: kind, Line: "Ligne " + kind, Link: "/dis/needs", At: ten}); err != nil {
				t.Fatal(err)
			}
		}
		run(t, jobs.Notifications, e, ten)
		msgs := srv.Merged(t)
		if len(msgs) != 1 {
			t.Fatalf("%d digests", len(msgs))
		}
		token := regexp.MustCompile(`/landing/unsubscribe#([A-Za-z0-9_.-]+)`).FindStringSubmatch(msgs[0].Body)
		header := regexp.MustCompile(`t=([A-Za-z0-9_.-]+)>`).FindStringSubmatch(msgs[0].Header.Get("List-Unsubscribe"))
		if token == nil || header == nil || token[1] != header[1] {
			t.Fatalf("link %v, header %v", token, header)
		}
		refused := func(bad string) {
			t.Helper()
			var v *core.ValidationError
			if _, err := notify.Unsubscribe(ctx, db, bad); !errors.As(err, &v) || v.Fields[0].Message != notify.MsgUnsubscribeInvalid {
				t.Fatalf("token %q: %v, want a refusal", bad, err)
			}
		}
		payload, sig, _ := strings.Cut(token[1], ".")
		flip := "A"
		if sig[:1] == "A" {
			flip = "B"
		}
		refused(payload + "." + flip + sig[1:])
		refused(strings.Replace(payload, payload[:4], "QUJD", 1) + "." + sig)
		refused("")
		refused(token[1][:len(token[1])-1])
		prefs, err := notify.Prefs(ctx, db, w.Shop.ID, w.Shop.ID, accounts.RoleOwner, false)
		if err != nil {
			t.Fatal(err)
		}
		for _, p := range prefs {
			if p.Mode != notify.Immediate {
				t.Fatalf("a refused token changed %+v", p)
			}
		}
		labels, err := notify.Unsubscribe(ctx, db, token[1])
		if err != nil || len(labels) != 2 {
			t.Fatalf("unsubscribe: %v %v", labels, err)
		}
		prefs, _ = notify.Prefs(ctx, db, w.Shop.ID, w.Shop.ID, accounts.RoleOwner, false)
		off := map[string]string{}
		for _, p := range prefs {
			off[p.Kind] = p.Mode
		}
		if off[notify.Proposal] != notify.None || off[notify.Claim] != notify.None || off[notify.Note] != notify.Immediate {
			t.Fatalf("after unsubscribing: %v", off)
		}
	})
}

// TestDocumentsGoToConfirmedAddresses: a delivery note goes to the
// confirmed party only; with no party confirmed it waits, and goes when
// one confirms. An invoice goes to the shop's login email until its
// accounting email is confirmed.
func TestDocumentsGoToConfirmedAddresses(t *testing.T) {
	t.Parallel()
	storetest.Each(t, func(t *testing.T, db *store.DB) {
		w := tradetest.New(t, db)
		e, srv := smtpEnv(t, db)
		w.Exec(`UPDATE users SET email_confirmed = '' WHERE id = ?`, w.Shop.ID)
		w.Exec(`UPDATE people SET email_confirmed = '' WHERE id = ?`, w.Shop.ID)
		o := w.Order(w.Farm, w.Shop, "2026-11-01")
		w.Delivery(o, "2026-11-10", "planned", tradetest.L{Product: "tomate", Price: 250, Expected: 1000})
		run(t, jobs.Deliveries, e, at(2026, 11, 10, 12, 0))
		run(t, jobs.Deliveries, e, at(2026, 11, 10, 12, 35))
		copies := srv.Copies()
		if len(copies) != 1 || copies[firstKey(copies)]["ferme@aravis.fr"] != 1 || copies[firstKey(copies)]["epicerie@lac.fr"] != 0 {
			t.Fatalf("note copies %v, want the farm's only", copies)
		}

		// Nobody confirmed: the next note waits.
		w.Exec(`UPDATE users SET email_confirmed = ''`)
		w.Exec(`UPDATE people SET email_confirmed = ''`)
		w.Delivery(o, "2026-11-17", "planned", tradetest.L{Product: "tomate", Price: 250, Expected: 500})
		run(t, jobs.Deliveries, e, at(2026, 11, 17, 12, 0))
		if r := run(t, jobs.Deliveries, e, at(2026, 11, 17, 12, 35)); r.Get(jobs.NotesSent) != 0 {
			t.Fatalf("nobody confirmed: %s", r)
		}
		var attempts int
		if err := store.Get(ctx, db, &attempts, `SELECT COALESCE(SUM(attempts), 0) FROM sends WHERE kind = 'note'`); err != nil || attempts != 0 {
			t.Fatalf("waiting counted %d attempts (%v)", attempts, err)
		}
		w.Exec(`UPDATE users SET email_confirmed = email_key WHERE id = ?`, w.Shop.ID)
		w.Exec(`UPDATE people SET email_confirmed = email_key WHERE id = ?`, w.Shop.ID)
		if r := run(t, jobs.Deliveries, e, at(2026, 11, 17, 12, 40)); r.Get(jobs.NotesSent) != 1 {
			t.Fatalf("the shop confirmed: %s", r)
		}

		// The accounting email unconfirmed: the invoice goes to the login.
		w.Exec(`UPDATE users SET email_confirmed = email_key, accounting_confirmed = ''`)
		w.Exec(`UPDATE people SET email_confirmed = email_key`)
		run(t, jobs.Invoices, e, at(2026, 12, 1, 6, 0))
		var invoiceTo []string
		for _, m := range srv.Merged(t) {
			if strings.HasPrefix(m.Subject, "Facture ") {
				invoiceTo = m.To
			}
		}
		if strings.Join(invoiceTo, ",") != "epicerie@lac.fr,ferme@aravis.fr" {
			t.Fatalf("invoice to %v", invoiceTo)
		}
	})
}

func firstKey(m map[string]map[string]int) string {
	for k := range m {
		return k
	}
	return ""
}

// TestDigestsWithNothingToSayAreDropped: a digest made before its account
// was closed, or whose lines all went since, is not emailed, and nothing
// says it was: it is recorded as dropped (its row of sends: dropped_at, sent_at empty),
// counted in the report and told to the Observer as dropped, logged as
// dropped, never as sent, and never tried again. The digest of a live
// account beside them is sent and counted as before.
func TestDigestsWithNothingToSayAreDropped(t *testing.T) {
	t.Parallel()
	storetest.Each(t, func(t *testing.T, db *store.DB) {
		w := tradetest.New(t, db)
		other := w.User(accounts.User{Type: accounts.Distributor, Email: "autre@magasin.fr", Name: "Autre magasin"})
		ten := at(2026, 11, 26, 10, 0)
		digest := func(id, userID string, lines int) {
			t.Helper()
			w.Exec(`INSERT INTO digests (id, user_id, daily, created_at) VALUES (?, ?, FALSE, ?)`, id, userID, ten.UnixMilli())
			for i := range lines {
				w.Exec(`INSERT INTO notifications (id, user_id, kind, line, link, created_at, digest_id) VALUES (?, ?, 'claim', 'Une réclamation.', '/x', ?, ?)`,
					fmt.Sprintf("%s-%d", id, i), userID, ten.UnixMilli(), id)
			}
		}
		digest("closed", w.Shop.ID, 1)
		digest("empty", w.Farm.ID, 0)
		digest("live", other.ID, 2)
		if err := closure.Close(ctx, db, w.Shop, ten.Add(time.Minute), time.UTC); err != nil {
			t.Fatal(err)
		}
		var l logs
		var h heard
		e, srv := smtpEnv(t, db)
		e.Log, e.Observe = l.logger(), h.observer()

		r := run(t, jobs.Notifications, e, ten.Add(5*time.Minute))
		if r.Get(jobs.DigestsSent) != 1 || r.Get(jobs.DigestsDropped) != 2 {
			t.Fatalf("report %s, want 1 sent and 2 dropped", r)
		}
		if h.get("sent digest") != 1 || h.get("dropped digest") != 2 || h.get("failed digest") != 0 {
			t.Fatalf("heard %v, want 1 sent and 2 dropped", h.counts)
		}
		lines := l.take()
		if strings.Count(lines, `msg="email sent"`) != 1 || strings.Count(lines, `msg="email dropped: nothing to send"`) != 2 ||
			!strings.Contains(lines, "the account is closed") || !strings.Contains(lines, "no line left") {
			t.Fatalf("logs:\n%s", lines)
		}
		if msgs := srv.Merged(t); len(msgs) != 1 || msgs[0].To[0] != "autre@magasin.fr" {
			t.Fatalf("emails %+v, want the live account's digest only", msgs)
		}
		var rows []struct {
			ID      string `db:"id"`
			Sent    bool   `db:"sent"`
			Dropped bool   `db:"dropped"`
		}
		if err := store.Select(ctx, db, &rows, `SELECT t.id, s.sent_at IS NOT NULL AS sent, s.dropped_at IS NOT NULL AS dropped
			FROM digests t LEFT JOIN sends s ON s.message_key = 'digest-' || t.id ORDER BY t.id`); err != nil {
			t.Fatal(err)
		}
		want := []string{"closed sent=false dropped=true", "empty sent=false dropped=true", "live sent=true dropped=false"}
		for i, row := range rows {
			if got := fmt.Sprintf("%s sent=%v dropped=%v", row.ID, row.Sent, row.Dropped); i >= len(want) || got != want[i] {
				t.Fatalf("digests %+v, want %v", rows, want)
			}
		}

		// Never again: nothing to send, drop or count.
		if r := run(t, jobs.Notifications, e, ten.Add(10*time.Minute)); r.Get(jobs.DigestsSent) != 0 || r.Get(jobs.DigestsDropped) != 0 ||
			strings.Contains(r.String(), jobs.DigestsDropped) {
			t.Fatalf("the run after: %s", r)
		}
		if h.get("dropped digest") != 2 || len(srv.Merged(t)) != 1 {
			t.Fatalf("the run after: heard %v, %d emails", h.counts, len(srv.Merged(t)))
		}
	})
}
