package schema_test

import (
	"context"
	"testing"

	"primeur/core/schema"
	"primeur/core/store"
	"primeur/core/store/storetest"
)

// TestRegimesMigration: migration 32 gives producers their VAT regime (the
// flat-rate refund without a VAT number), documents the regime they were
// issued under and the escompte their mention stated, and lets a credit
// note be an escompte's (no delivery, one per invoice) — on SQLite by
// rebuilding credit_notes and credit_note_lines with every row, key and
// reference kept.
func TestRegimesMigration(t *testing.T) {
	storetest.EachEmpty(t, func(t *testing.T, db *store.DB) {
		ctx := context.Background()
		if _, err := schema.MigrateTo(ctx, db, 31); err != nil {
			t.Fatal(err)
		}
		party := `{"name":"F","address":[]}`
		terms := `[{"subject":"AAB","text":"Escompte de 2,5 % pour un paiement dans les 10 jours suivant la date d'émission."}]`
		none := `[{"subject":"AAB","text":"Pas d'escompte pour paiement anticipé."}]`
		document := `, month, year, seq, number, issued_at, issue_date, due_date, seller, buyer, notes, vat_rate, vat_exempt,
			total_ht, total_vat, total_ttc, terms, sent_at) VALUES `
		for _, q := range []struct {
			query string
			args  []any
		}{
			{`INSERT INTO users (id, type, email, email_key, name, password_hash, tvaintracom, created_at, updated_at) VALUES
				('shop', 'distributor', 's@x.fr', 's@x.fr', 'S', '-', '', 0, 0),
				('farm', 'producer', 'f@x.fr', 'f@x.fr', 'F', '-', 'FR44732829320', 0, 0),
				('flat', 'producer', 'g@x.fr', 'g@x.fr', 'G', '-', ' ', 0, 0)`, nil},
			{`INSERT INTO orders (id, producer_id, distributor_id, month, created_at, updated_at) VALUES
				('o1', 'farm', 'shop', '2026-10-01', 0, 0), ('o2', 'flat', 'shop', '2026-10-01', 0, 0)`, nil},
			{`INSERT INTO deliveries (id, order_id, producer_id, status, date, chrono, created_at, updated_at) VALUES
				('d1', 'o1', 'farm', 'done', '2026-10-05', 1, 0, 0), ('d2', 'o1', 'farm', 'done', '2026-10-06', 2, 0, 0)`, nil},
			{`INSERT INTO invoices (id, order_id, producer_id, distributor_id` + document + `
				('i1', 'o1', 'farm', 'shop', '2026-10-01', 2026, 1, 'FA-2026-000001', 0, '2026-11-01', '2026-11-09', ?, ?, '[]', 550, FALSE, 0, 0, 0, ?, NULL),
				('i2', 'o2', 'flat', 'shop', '2026-10-01', 2026, 1, 'FA-2026-000001', 0, '2026-11-01', '2026-11-20', ?, ?, '[]', 0, TRUE, 0, 0, 0, ?, 1)`,
				[]any{party, party, terms, party, party, none}},
			{`INSERT INTO credit_notes (id, kind, invoice_id, delivery_id, order_id, producer_id, distributor_id` + document + `
				('c1', 'credit', 'i1', 'd1', 'o1', 'farm', 'shop', '2026-10-01', 2026, 1, 'AV-2026-000001', 0, '2026-11-02', '', ?, ?, '[]', 550, FALSE, -1, 0, -1, ?, NULL),
				('c2', 'complement', 'i1', 'd2', 'o1', 'farm', 'shop', '2026-10-01', 2026, 2, 'FA-2026-000002', 0, '2026-11-03', '2026-11-05', ?, ?, '[]', 550, FALSE, 1, 0, 1, ?, NULL)`,
				[]any{party, party, terms, party, party, terms}},
			{`INSERT INTO credit_note_lines (credit_note_id, position, chrono, date, product_id, product, unit, quantity, price, amount)
				VALUES ('c1', 1, 1, '2026-10-05', 'tomate', 'Tomate', 'kg', 100, 250, 250)`, nil},
		} {
			if _, err := store.Exec(ctx, db, q.query, q.args...); err != nil {
				t.Fatal(err)
			}
		}
		// To the version before migration 40 moved the documents.
		if _, err := schema.MigrateTo(ctx, db, 39); err != nil {
			t.Fatal(err)
		}
		var users []struct {
			ID     string `db:"id"`
			Regime string `db:"vat_regime"`
		}
		if err := store.Select(ctx, db, &users, `SELECT id, vat_regime FROM users ORDER BY id`); err != nil {
			t.Fatal(err)
		}
		if len(users) != 3 || users[0].Regime != "normal" || users[1].Regime != "flat" || users[2].Regime != "normal" {
			t.Fatalf("regimes %+v", users)
		}
		type doc struct {
			ID       string `db:"id"`
			Regime   string `db:"vat_regime"`
			Discount int64  `db:"discount"`
			Until    string `db:"discount_until"`
			Delivery string `db:"delivery"`
		}
		var docs []doc
		if err := store.Select(ctx, db, &docs, `SELECT id, vat_regime, discount, discount_until, '' AS delivery FROM invoices
			UNION ALL SELECT id, vat_regime, discount, discount_until, COALESCE(delivery_id, '') FROM credit_notes ORDER BY id`); err != nil {
			t.Fatal(err)
		}
		want := []doc{
			{"c1", "normal", 0, "", "d1"},             // a credit note is not paid: no escompte
			{"c2", "normal", 250, "2026-11-05", "d2"}, // the window ends on the due date
			{"i1", "normal", 250, "2026-11-09", ""},   // 1 November + 10 days, by the due date
			{"i2", "franchise", 0, "", ""},            // issued exempt, as 293 B
		}
		if len(docs) != len(want) {
			t.Fatalf("documents %+v", docs)
		}
		for i := range want {
			if docs[i] != want[i] {
				t.Fatalf("document %+v, want %+v", docs[i], want[i])
			}
		}
		// Its lines still refer to the credit note, and the reference holds.
		if _, err := store.Exec(ctx, db, `INSERT INTO credit_note_lines (credit_note_id, position, chrono, date, product_id, product,
			unit, quantity, price, amount) VALUES ('nowhere', 1, 1, '2026-10-05', 'tomate', 'Tomate', 'kg', 100, 250, 250)`); err == nil {
			t.Fatal("a line of no credit note accepted")
		}
		// An escompte's credit note: no delivery, one per invoice.
		discount := `INSERT INTO credit_notes (id, kind, invoice_id, delivery_id, order_id, producer_id, distributor_id` + document +
			`(?, 'discount', 'i1', NULL, 'o1', 'farm', 'shop', '2026-10-01', 2026, ?, ?, 0, '2026-11-04', '', ?, ?, '[]', 550, FALSE, -1, 0, -1, '[]', NULL)`
		if _, err := store.Exec(ctx, db, discount, "e1", 3, "AV-2026-000003", party, party); err != nil {
			t.Fatal(err)
		}
		if _, err := store.Exec(ctx, db, discount, "e2", 4, "AV-2026-000004", party, party); !store.IsUniqueViolation(err) {
			t.Fatalf("a second escompte credit note of the invoice: %v", err)
		}
		if _, err := store.Exec(ctx, db, `UPDATE credit_notes SET kind = 'rebate' WHERE id = 'c1'`); err == nil {
			t.Fatal("a kind of credit note that is none accepted")
		}
	})
}
