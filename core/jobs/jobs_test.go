package jobs_test

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"log/slog"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/jmoiron/sqlx"

	"primeur/core/accounts"
	"primeur/core/billing"
	"primeur/core/delivery"
	"primeur/core/facturx/facturxtest"
	"primeur/core/jobs"
	"primeur/core/mail"
	"primeur/core/mail/mailtest"
	"primeur/core/orders"
	"primeur/core/store"
	"primeur/core/store/storetest"
	"primeur/core/trade/tradetest"
)

var (
	ctx = context.Background()
	at  = tradetest.At
)

func env(db *store.DB, sender mail.Sender) jobs.Env {
	return jobs.Env{DB: db, Mail: sender, Rules: delivery.DefaultRules(), Log: slog.New(slog.DiscardHandler), BaseURL: "https://primeur.example"}
}

func smtpEnv(t *testing.T, db *store.DB) (jobs.Env, *mailtest.Server) {
	srv := mailtest.Start(t, "", "")
	return env(db, mail.SMTP{Config: srv.Config()}), srv
}

func run(t *testing.T, job func(context.Context, jobs.Env, time.Time) (jobs.Report, error), e jobs.Env, now time.Time) jobs.Report {
	t.Helper()
	r, err := job(ctx, e, now)
	if err != nil {
		t.Fatalf("at %v: %v", now, err)
	}
	return r
}

func pdfAttachment(t *testing.T, m mailtest.Message, name string) {
	t.Helper()
	if len(m.Attachments) != 1 || m.Attachments[0].Name != name || m.Attachments[0].ContentType != "application/pdf" ||
		!bytes.HasPrefix(m.Attachments[0].Data, []byte("%PDF-")) {
		t.Fatalf("attachments of %q: %+v", m.Subject, m.Attachments)
	}
}

func TestDeliveriesJobLocksAndEmailsNotes(t *testing.T) {
	t.Parallel()
	storetest.Each(t, func(t *testing.T, db *store.DB) {
		w := tradetest.New(t, db)
		o := w.Order(w.Farm, w.Shop, "2026-11-01")
		d := w.Delivery(o, "2026-11-20", orders.Planned, tradetest.L{Product: "tomate", Price: 250, Expected: 1000})
		w.Delivery(o, "2026-11-23", orders.Planned, tradetest.L{Product: "tomate", Price: 250, Expected: 1000})
		e, srv := smtpEnv(t, db)

		for _, step := range []struct {
			now            time.Time
			locked, emails int
		}{
			{at(2026, 11, 20, 11, 55), 0, 0},
			{at(2026, 11, 20, 12, 0), 1, 0},
			{at(2026, 11, 20, 12, 29), 0, 0},
			{at(2026, 11, 20, 12, 30), 0, 1},
			{at(2026, 11, 20, 12, 35), 0, 0},
		} {
			r := run(t, jobs.Deliveries, e, step.now)
			if r.Get(jobs.Locked) != step.locked || r.Get(jobs.NotesSent) != step.emails {
				t.Fatalf("at %v: %s", step.now, r)
			}
		}
		msgs := srv.Merged(t)
		if len(msgs) != 1 {
			t.Fatalf("%d messages", len(msgs))
		}
		m := msgs[0]
		if m.Subject != "Bon de livraison BL-000001 — livraison du 20 novembre 2026" ||
			!slices.Equal(m.To, []string{"ferme@aravis.fr", "epicerie@lac.fr"}) ||
			!strings.Contains(m.Body, "La livraison du 20 novembre 2026 de Ferme des Aravis à Épicerie du Lac est validée") ||
			// Friday 20: Monday 23 and Tuesday 24 are its two working days.
			!strings.Contains(m.Body, "sur cette livraison jusqu'au mardi 24 novembre 2026 inclus (deux jours ouvrés après la livraison)") ||
			!strings.Contains(m.Body, "https://primeur.example") ||
			m.Header.Get("Message-Id") != "<note-"+d+"@primeur.local>" {
			t.Fatalf("message %q to %v: %s", m.Subject, m.To, m.Body)
		}
		pdfAttachment(t, m, "BL-000001.pdf")
		if got := w.Get(d); got.NoteSentAt == nil {
			t.Fatalf("note_sent_at %v", got.NoteSentAt)
		}
	})
}

func TestWithoutSMTPTheOutboxKeepsEveryMessage(t *testing.T) {
	t.Parallel()
	storetest.Each(t, func(t *testing.T, db *store.DB) {
		w := tradetest.New(t, db)
		w.Exec(`UPDATE users SET email_accounting = '' WHERE id = ?`, w.Shop.ID)
		o := w.Order(w.Farm, w.Shop, "2026-11-01")
		d := w.Delivery(o, "2026-11-30", orders.Planned, tradetest.L{Product: "tomate", Price: 250, Expected: 1000})
		outbox := mail.Outbox{Dir: filepath.Join(t.TempDir(), "outbox"), From: "no-reply@primeur.local"}
		e := env(db, outbox)
		run(t, jobs.Deliveries, e, at(2026, 11, 30, 13, 0))
		r := run(t, jobs.Invoices, e, at(2026, 12, 1, 6, 0))
		if r.Get(jobs.InvoicesIssued) != 1 || r.Get(jobs.InvoicesSent) != 1 {
			t.Fatalf("invoices: %s", r)
		}
		var invoiceID string
		if err := store.Get(ctx, db, &invoiceID, `SELECT id FROM documents WHERE kind = 'invoice'`); err != nil {
			t.Fatal(err)
		}
		entries, _ := os.ReadDir(outbox.Dir)
		var names []string
		for _, e := range entries {
			names = append(names, e.Name())
		}
		// A copy per recipient: the first as key.eml, the second as key.2.eml.
		if want := []string{"invoice-" + invoiceID + ".2.eml", "invoice-" + invoiceID + ".eml", "note-" + d + ".2.eml", "note-" + d + ".eml"}; !slices.Equal(names, want) {
			t.Fatalf("outbox %v, want %v", names, want)
		}
		raw, err := os.ReadFile(outbox.Path("invoice-" + invoiceID))
		if err != nil {
			t.Fatal(err)
		}
		m := mailtest.Parse(t, raw)
		// Without an accounting address, the shop's own email; the
		// producer's copy beside it.
		raw2, err := os.ReadFile(outbox.Path("invoice-" + invoiceID + ".2"))
		if err != nil {
			t.Fatal(err)
		}
		if m2 := mailtest.Parse(t, raw2); !slices.Equal(m.To, []string{"epicerie@lac.fr"}) || !slices.Equal(m2.To, []string{"ferme@aravis.fr"}) ||
			m.Subject != "Facture FA-2026-000001 — Ferme des Aravis — novembre 2026" || m2.Subject != m.Subject {
			t.Fatalf("invoice message %q to %v and %v", m.Subject, m.To, m2.To)
		}
		pdfAttachment(t, m, "FA-2026-000001.pdf")
	})
}

func TestInvoicesJobEmailsAccountingAndProducer(t *testing.T) {
	t.Parallel()
	storetest.Each(t, func(t *testing.T, db *store.DB) {
		w := tradetest.New(t, db)
		o := w.Order(w.Farm, w.Shop, "2026-11-01")
		w.Emailed(o, "2026-11-10", tradetest.L{Product: "tomate", Price: 250, Expected: 1000})
		e, srv := smtpEnv(t, db)
		// November is billed on its last day at 21:00, not before.
		if r := run(t, jobs.Invoices, e, at(2026, 11, 30, 20, 59)); r.Get(jobs.InvoicesIssued) != 0 {
			t.Fatalf("before 21:00 on the 30th: %s", r)
		}
		if r := run(t, jobs.Invoices, e, at(2026, 11, 30, 21, 0)); r.Get(jobs.InvoicesIssued) != 1 || r.Get(jobs.InvoicesSent) != 1 {
			t.Fatalf("at 21:00 on the 30th: %s", r)
		}
		if r := run(t, jobs.Invoices, e, at(2026, 12, 1, 21, 0)); r.Get(jobs.InvoicesIssued) != 0 || r.Get(jobs.InvoicesSent) != 0 {
			t.Fatalf("again: %s", r)
		}
		msgs := srv.Merged(t)
		if len(msgs) != 1 {
			t.Fatalf("%d messages", len(msgs))
		}
		m := msgs[0]
		// Each side's owners and accountants (issue 41: the shop's
		// accounting address is no recipient of its own any more).
		if !slices.Equal(m.To, []string{"epicerie@lac.fr", "ferme@aravis.fr"}) ||
			!strings.Contains(m.Body, "facture FA-2026-000001 du 30 novembre 2026, émise par Primeur au nom et pour le compte de Ferme des Aravis") ||
			!strings.Contains(m.Body, "Montant TTC : 26,38\u00a0€") || !strings.Contains(m.Body, "Échéance : 10 décembre 2026") {
			t.Fatalf("message to %v: %s", m.To, m.Body)
		}
		pdfAttachment(t, m, "FA-2026-000001.pdf")
	})
}

func TestAFailedSendIsRetried(t *testing.T) {
	t.Parallel()
	storetest.Each(t, func(t *testing.T, db *store.DB) {
		w := tradetest.New(t, db)
		o := w.Order(w.Farm, w.Shop, "2026-11-01")
		w.Emailed(o, "2026-11-10", tradetest.L{Product: "tomate", Price: 250, Expected: 1000})
		e, srv := smtpEnv(t, db)
		srv.SetFailure(errors.New("service unavailable"))
		r, err := jobs.Invoices(ctx, e, at(2026, 12, 1, 6, 0))
		if err == nil || !strings.Contains(err.Error(), "service unavailable") || r.Get(jobs.InvoicesIssued) != 1 || r.Get(jobs.InvoicesSent) != 0 {
			t.Fatalf("failed send: %s, %v", r, err)
		}
		var claim *string
		if err := store.Get(ctx, db, &claim, `SELECT claim FROM sends WHERE kind = 'invoice'`); err != nil || claim != nil {
			t.Fatalf("claim left after a failure: %v, %v", claim, err)
		}
		srv.SetFailure(nil)
		// The deliveries job, every 5 minutes, sends what is still unsent.
		if r := run(t, jobs.Deliveries, e, at(2026, 12, 1, 6, 5)); r.Get(jobs.InvoicesSent) != 1 {
			t.Fatalf("retry: %s", r)
		}
		if n := len(srv.Merged(t)); n != 1 {
			t.Fatalf("%d messages", n)
		}
	})
}

// TestConcurrentJobsSendEachDocumentOnce runs the deliveries and invoices
// jobs on several connection pools at once, as replicas would.
func TestConcurrentJobsSendEachDocumentOnce(t *testing.T) {
	t.Parallel()
	storetest.Each(t, func(t *testing.T, db *store.DB) {
		w := tradetest.New(t, db)
		var shops []accounts.User
		for i := range 5 {
			shops = append(shops, w.User(accounts.User{Type: accounts.Distributor, Email: fmt.Sprintf("magasin%d@x.fr", i), Name: fmt.Sprintf("Magasin %d", i)}))
		}
		for _, s := range shops {
			o := w.Order(w.Farm, s, "2026-11-01")
			for _, day := range []string{"2026-11-27", "2026-11-30"} {
				w.Delivery(o, day, orders.Planned, tradetest.L{Product: "tomate", Price: 250, Expected: 1000})
			}
		}
		srv := mailtest.Start(t, "", "")
		var wg sync.WaitGroup
		for range 4 {
			e := env(tradetest.Handle(t, db), mail.SMTP{Config: srv.Config()})
			wg.Add(1)
			go func() {
				defer wg.Done()
				for _, now := range []time.Time{at(2026, 11, 30, 12, 30), at(2026, 12, 1, 6, 0)} {
					if _, err := jobs.Deliveries(ctx, e, now); err != nil {
						t.Error(err)
					}
					if _, err := jobs.Invoices(ctx, e, now); err != nil {
						t.Error(err)
					}
				}
			}()
		}
		wg.Wait()
		keys := map[string]int{}
		for id, byRecipient := range srv.Copies() {
			for _, n := range byRecipient {
				keys[id] = max(keys[id], n)
			}
		}
		notes, invoices := 0, 0
		for k, n := range keys {
			if n != 1 {
				t.Errorf("%s sent %d times", k, n)
			}
			if strings.HasPrefix(k, "<note-") {
				notes++
			} else {
				invoices++
			}
		}
		if notes != 10 || invoices != 5 {
			t.Fatalf("%d notes and %d invoices emailed, want 10 and 5", notes, invoices)
		}
		var seqs []int64
		if err := store.Select(ctx, db, &seqs, `SELECT seq FROM documents WHERE kind = 'invoice' ORDER BY seq`); err != nil {
			t.Fatal(err)
		}
		if !slices.Equal(seqs, []int64{1, 2, 3, 4, 5}) {
			t.Fatalf("numbers %v", seqs)
		}
	})
}

func TestClaimsJob(t *testing.T) {
	t.Parallel()
	storetest.Each(t, func(t *testing.T, db *store.DB) {
		w := tradetest.New(t, db)
		o := w.Order(w.Farm, w.Shop, "2026-11-01")
		d := w.Delivery(o, "2026-11-10", orders.Done, tradetest.L{Product: "tomate", Price: 250, Expected: 1000})
		q, kind := -1.0, "quantity"
		sent := at(2026, 11, 12, 9, 0)
		if err := db.Tx(ctx, func(tx *sqlx.Tx) error {
			_, err := delivery.DefaultRules().SendClaim(ctx, tx, w.Farm.ID, o, d, delivery.Claim{Lines: []delivery.LineClaim{
				{ID: w.Line(d, "tomate"), QuantityClaimed: &q, ClaimType: &kind}}}, sent)
			return err
		}); err != nil {
			t.Fatal(err)
		}
		e := env(db, mail.Outbox{Dir: t.TempDir(), From: "no-reply@primeur.local"})
		if r := run(t, jobs.Claims, e, sent.Add(47*time.Hour)); r.Get(jobs.ClaimsAccepted) != 0 {
			t.Fatalf("after 47 h: %s", r)
		}
		if r := run(t, jobs.Claims, e, sent.Add(48*time.Hour)); r.Get(jobs.ClaimsAccepted) != 1 || r.String() != "réclamations validées automatiquement : 1, avoirs et factures complémentaires émis : 0, avoirs et factures complémentaires envoyés : 0" {
			t.Fatalf("after 48 h: %s", r)
		}
		if w.Get(d).ClaimStatus != orders.ClaimAccepted {
			t.Fatal("not accepted")
		}
	})
}

// TestInvoicesJobSettlesClaimsWithCreditNotes: the invoices job of the
// 1st at 06:00 neither accepts a claim sent the evening before nor waits
// for it: it invoices every order on what was sent. The shop accepts one
// such claim (the daemon settles it in the answer's transaction): the
// credit note is emailed by the next run. Nobody answers the other, which
// claims more than was sent: silence never accepts a claim that raises the
// amount (art. 1120 C. civ.), so no run of the claims or invoices job
// accepts it, however long it waits; the shop accepts it a week later, and
// its complementary invoice, issued with the answer, is emailed by the
// next claims run. Both documents are Factur-X, to the shop's accounting
// and the producer.
func TestInvoicesJobSettlesClaimsWithCreditNotes(t *testing.T) {
	t.Parallel()
	storetest.Each(t, func(t *testing.T, db *store.DB) {
		w := tradetest.New(t, db)
		shop2 := w.User(accounts.User{Type: accounts.Distributor, Email: "deux@magasin.fr", Name: "Deuxième magasin",
			SIRET: "55566677700011"})
		shop3 := w.User(accounts.User{Type: accounts.Distributor, Email: "trois@magasin.fr", Name: "Troisième magasin"})
		answered, unanswered, plain := w.Order(w.Farm, w.Shop, "2026-11-01"), w.Order(w.Farm, shop2, "2026-11-01"), w.Order(w.Farm, shop3, "2026-11-01")
		line := tradetest.L{Product: "tomate", Price: 250, Expected: 1200, Sent: tradetest.Dec(1000)}
		d1 := w.Emailed(answered, "2026-11-30", line)
		d2 := w.Emailed(unanswered, "2026-11-30", line)
		w.Emailed(plain, "2026-11-30", line)
		lastEvening := at(2026, 11, 30, 22, 0)
		rules := delivery.DefaultRules()
		send := func(order, d string, q float64) {
			kind := "quantity"
			if err := db.Tx(ctx, func(tx *sqlx.Tx) error {
				_, err := rules.SendClaim(ctx, tx, w.Farm.ID, order, d, delivery.Claim{Lines: []delivery.LineClaim{
					{ID: w.Line(d, "tomate"), QuantityClaimed: &q, ClaimType: &kind}}}, lastEvening)
				return err
			}); err != nil {
				t.Fatal(err)
			}
		}
		send(answered, d1, -1)
		send(unanswered, d2, 2)
		e, srv := smtpEnv(t, db)
		job, _ := jobs.Find("invoices")
		total := func(order string) int64 {
			var n int64
			if err := store.Get(ctx, db, &n, `SELECT total_ht FROM documents WHERE kind = 'invoice' AND order_id = ?`, order); err != nil {
				t.Fatalf("invoice of %s: %v", order, err)
			}
			return n
		}

		r := run(t, job.Run, e, at(2026, 12, 1, 6, 0))
		if r.String() != "factures émises : 3, factures envoyées : 3, avoirs et factures complémentaires émis : 0, avoirs et factures complémentaires envoyés : 0" {
			t.Fatalf("the 1st: %s", r)
		}
		if total(answered) != 2500 || total(unanswered) != 2500 || total(plain) != 2500 ||
			w.Get(d1).ClaimStatus != orders.ClaimSent || w.Get(d2).ClaimStatus != orders.ClaimSent {
			t.Fatal("the run of the 1st accepted or billed a claim sent the evening before")
		}

		// The shop accepts the first claim on the 1st, as the daemon does.
		if err := db.Tx(ctx, func(tx *sqlx.Tx) error {
			if _, err := rules.Review(ctx, tx, w.Shop.ID, answered, d1, true, at(2026, 12, 1, 9, 0)); err != nil {
				return err
			}
			_, err := billing.SettleOrder(ctx, tx, answered, at(2026, 12, 1, 9, 0), rules.Location)
			return err
		}); err != nil {
			t.Fatal(err)
		}
		if r := run(t, job.Run, e, at(2026, 12, 2, 6, 0)); r.Get(jobs.InvoicesIssued) != 0 || r.Get(jobs.CreditsSent) != 1 {
			t.Fatalf("the 2nd: %s", r)
		}

		// Nobody answers the other, which raises the amount: neither the
		// claims job past its 48 h nor the invoices job a week later
		// accepts it.
		for _, when := range []time.Time{at(2026, 12, 2, 22, 0), at(2026, 12, 8, 22, 0)} {
			if r := run(t, jobs.Claims, e, when); r.Get(jobs.ClaimsAccepted) != 0 || r.Get(jobs.CreditsIssued) != 0 {
				t.Fatalf("claims at %s: %s", when, r)
			}
		}
		if r := run(t, job.Run, e, at(2026, 12, 9, 6, 0)); r.Get(jobs.InvoicesIssued) != 0 || r.Get(jobs.CreditsIssued) != 0 || r.Get(jobs.CreditsSent) != 0 {
			t.Fatalf("the 9th: %s", r)
		}
		if w.Get(d2).ClaimStatus != orders.ClaimSent {
			t.Fatal("a claim raising the amount was accepted by silence")
		}
		// The shop accepts it on the 9th: the complementary invoice comes
		// with its answer and the next claims run emails it.
		if err := db.Tx(ctx, func(tx *sqlx.Tx) error {
			if _, err := rules.Review(ctx, tx, shop2.ID, unanswered, d2, true, at(2026, 12, 9, 9, 0)); err != nil {
				return err
			}
			_, err := billing.SettleOrder(ctx, tx, unanswered, at(2026, 12, 9, 9, 0), rules.Location)
			return err
		}); err != nil {
			t.Fatal(err)
		}
		r = run(t, jobs.Claims, e, at(2026, 12, 9, 10, 0))
		if r.String() != "réclamations validées automatiquement : 0, avoirs et factures complémentaires émis : 0, avoirs et factures complémentaires envoyés : 1" {
			t.Fatalf("claims at 10:00 on the 9th: %s", r)
		}

		msgs := srv.Merged(t)
		var credit, complement *mailtest.Message
		for i, m := range msgs {
			switch {
			case strings.HasPrefix(m.Subject, "Avoir AV-2026-000001"):
				credit = &msgs[i]
			case strings.HasPrefix(m.Subject, "Facture complémentaire FA-2026-000004"):
				complement = &msgs[i]
			}
		}
		if len(msgs) != 5 || credit == nil || complement == nil {
			t.Fatalf("%d messages: %v", len(msgs), msgs)
		}
		if !slices.Equal(credit.To, []string{"epicerie@lac.fr", "ferme@aravis.fr"}) ||
			!strings.Contains(credit.Body, "corrige la facture FA-2026-000001 du 1er décembre 2026") ||
			!strings.Contains(credit.Body, "Montant TTC : 2,64\u00a0€") {
			t.Fatalf("credit note message to %v: %s", credit.To, credit.Body)
		}
		pdfAttachment(t, *credit, "AV-2026-000001.pdf")
		pdfAttachment(t, *complement, "FA-2026-000004.pdf")
		// Issued on 9 December, due as a delivery of that day: 30 days after
		// the end of its décade.
		if !strings.Contains(complement.Body, "Échéance : 9 janvier 2027") {
			t.Fatalf("complementary invoice message: %s", complement.Body)
		}
		docs := map[string][]byte{}
		for _, m := range msgs {
			facturxtest.Keep(t, m.Attachments[0].Name, m.Attachments[0].Data)
			docs[m.Attachments[0].Name] = m.Attachments[0].Data
		}
		facturxtest.ValidateBytes(t, docs)
	})
}

// TestInvoicesJobLocksAndAcceptsBeforeIssuing: the invoices job alone —
// no deliveries or claims job ran since November (a daemon stopped) —
// locks the delivery left planned on the 30th, accepts the claim the shop
// left unanswered past its 48 h, and invoices the order on what was sent,
// with the credit note of the accepted claim; the claim sent the evening
// before, younger than its delay, is not accepted and defers nothing, nor
// is the older one that raises the amount (it waits for the shop).
func TestInvoicesJobLocksAndAcceptsBeforeIssuing(t *testing.T) {
	t.Parallel()
	storetest.Each(t, func(t *testing.T, db *store.DB) {
		w := tradetest.New(t, db)
		shop2 := w.User(accounts.User{Type: accounts.Distributor, Email: "deux@magasin.fr", Name: "Deuxième magasin"})
		o, young := w.Order(w.Farm, w.Shop, "2026-11-01"), w.Order(w.Farm, shop2, "2026-11-01")
		tomato := tradetest.L{Product: "tomate", Price: 250, Expected: 1000, Sent: tradetest.Dec(1000)}
		old := w.Delivery(o, "2026-11-26", orders.Done, tomato)
		// A claim that raises the amount, older still: never accepted by
		// silence.
		raised := w.Delivery(o, "2026-11-25", orders.Done, tradetest.L{Product: "tomate", Price: 250, Expected: 1200, Sent: tradetest.Dec(1000)})
		left := w.Delivery(o, "2026-11-30", orders.Planned, tradetest.L{Product: "laitue", Price: 90, Expected: 1000})
		evening := w.Delivery(young, "2026-11-30", orders.Done, tomato)
		rules := delivery.DefaultRules()
		for _, c := range []struct {
			order, delivery string
			sent            time.Time
			q               float64
		}{
			{o, old, at(2026, 11, 27, 9, 0), -2},          // 93 h before the run
			{o, raised, at(2026, 11, 26, 9, 0), 2},        // 117 h before the run, raising
			{young, evening, at(2026, 11, 30, 20, 0), -2}, // 10 h before the run
		} {
			q, kind := c.q, "quantity"
			if err := db.Tx(ctx, func(tx *sqlx.Tx) error {
				_, err := rules.SendClaim(ctx, tx, w.Farm.ID, c.order, c.delivery, delivery.Claim{Lines: []delivery.LineClaim{
					{ID: w.Line(c.delivery, "tomate"), QuantityClaimed: &q, ClaimType: &kind}}}, c.sent)
				return err
			}); err != nil {
				t.Fatal(err)
			}
		}
		e := env(db, mail.Outbox{Dir: t.TempDir(), From: "no-reply@primeur.local"})
		r := run(t, jobs.Invoices, e, at(2026, 12, 1, 6, 0))
		if r.String() != "factures émises : 2, factures envoyées : 2, avoirs et factures complémentaires émis : 0, avoirs et factures complémentaires envoyés : 1" {
			t.Fatalf("report %s", r)
		}
		if w.Get(left).Status != orders.Done || w.Get(old).ClaimStatus != orders.ClaimAccepted || w.Get(evening).ClaimStatus != orders.ClaimSent ||
			w.Get(raised).ClaimStatus != orders.ClaimSent {
			t.Fatal("the run did not lock the planned delivery or accept the old claim, or accepted the young one or the raising one")
		}
		var total int64
		if err := store.Get(ctx, db, &total, `SELECT total_ht FROM documents WHERE kind = 'invoice' AND order_id = ?`, o); err != nil || total != 5900 {
			t.Fatalf("invoice of %s: %d HT, %v; want 2 × 10 kg × 2,50 € + 10 × 0,90 €", o, total, err)
		}
		if err := store.Get(ctx, db, &total, `SELECT total_ht FROM documents WHERE kind = 'credit' AND order_id = ?`, o); err != nil || total != 500 {
			t.Fatalf("credit note of %s: %d HT, %v; want 2 kg × 2,50 €", o, total, err)
		}
	})
}

// TestPurge: the purge job deletes the sessions past their expiry and the
// throttling counts whose window is over, keeps the live ones, and a second
// run finds nothing left.
func TestPurge(t *testing.T) {
	t.Parallel()
	storetest.Each(t, func(t *testing.T, db *store.DB) {
		w := tradetest.New(t, db)
		t0 := at(2026, 11, 2, 9, 0)
		old, err := accounts.NewSession(ctx, db, w.Shop.ID, t0)
		if err != nil {
			t.Fatal(err)
		}
		// A wrong password counts attempts in windows of at most an hour
		// (the per-account one); the session lasts 14 idle days.
		if _, _, err := accounts.Login(ctx, db, "nobody@example.fr", "mauvais12", "10.0.0.9", t0); err == nil {
			t.Fatal("login of an unknown account")
		}
		later := t0.Add(20 * 24 * time.Hour)
		live, err := accounts.NewSession(ctx, db, w.Farm.ID, later)
		if err != nil {
			t.Fatal(err)
		}
		r, err := jobs.Purge(ctx, env(db, nil), later)
		if err != nil {
			t.Fatal(err)
		}
		if r.Get(jobs.SessionsPurged) != 1 || r.Get(jobs.CountsPurged) == 0 {
			t.Fatalf("report %s", r)
		}
		if _, err := accounts.SessionUser(ctx, db, old, t0.Add(time.Hour)); err == nil {
			t.Fatal("the expired session is still there")
		}
		if u, err := accounts.SessionUser(ctx, db, live, later); err != nil || u.ID != w.Farm.ID {
			t.Fatalf("the live session: %v %v", u.ID, err)
		}
		var left int
		if err := store.Get(ctx, db, &left, `SELECT COUNT(*) FROM throttle`); err != nil || left != 0 {
			t.Fatalf("%d throttle rows left, %v", left, err)
		}
		if r, err := jobs.Purge(ctx, env(db, nil), later); err != nil || r.Get(jobs.SessionsPurged) != 0 || r.Get(jobs.CountsPurged) != 0 {
			t.Fatalf("second run: %s %v", r, err)
		}
	})
}

func TestFind(t *testing.T) {
	t.Parallel()
	for _, name := range []string{"deliveries", "claims", "invoices", "purge"} {
		if j, ok := jobs.Find(name); !ok || j.Name != name || j.Run == nil || j.Summary == "" {
			t.Errorf("job %s: %+v", name, j)
		}
	}
	if _, ok := jobs.Find("other"); ok {
		t.Error("unknown job found")
	}
}

// TestEmailsContractNames: names with an article read as French in the
// emails' sentences (core/grammar): "des Jardins d'Alby au Panier des
// Aravis", "factures échues des Jardins d'Alby".
func TestEmailsContractNames(t *testing.T) {
	t.Parallel()
	storetest.Each(t, func(t *testing.T, db *store.DB) {
		w := tradetest.New(t, db)
		w.Exec(`UPDATE users SET name = 'Les Jardins d''Alby' WHERE id = ?`, w.Farm.ID)
		w.Exec(`UPDATE users SET name = 'Le Panier des Aravis' WHERE id = ?`, w.Shop.ID)
		o := w.Order(w.Farm, w.Shop, "2026-11-01")
		w.Delivery(o, "2026-11-05", orders.Planned, tradetest.L{Product: "tomate", Price: 250, Expected: 1000})
		e, srv := smtpEnv(t, db)
		run(t, jobs.Deliveries, e, at(2026, 11, 5, 12, 0))
		run(t, jobs.Deliveries, e, at(2026, 11, 5, 12, 30))
		run(t, jobs.Invoices, e, at(2026, 12, 1, 6, 0))
		run(t, jobs.Reminders, e, at(2026, 12, 11, 9, 0))
		msgs := srv.Merged(t)
		if len(msgs) != 3 {
			var subjects []string
			for _, m := range msgs {
				subjects = append(subjects, m.Subject)
			}
			t.Fatalf("%d messages: %q", len(msgs), subjects)
		}
		for i, want := range []string{
			"La livraison du 5 novembre 2026 des Jardins d'Alby au Panier des Aravis est validée",
			"au nom et pour le compte des Jardins d'Alby (mandat de facturation), pour les livraisons de novembre 2026 au Panier des Aravis.",
			"les factures suivantes des Jardins d'Alby restent à payer",
		} {
			if !strings.Contains(msgs[i].Body, want) {
				t.Errorf("message %d %q lacks %q:\n%s", i, msgs[i].Subject, want, msgs[i].Body)
			}
		}
		if s := msgs[2].Subject; s != "Relance : factures échues des Jardins d'Alby" {
			t.Errorf("reminder subject %q", s)
		}
	})
}
