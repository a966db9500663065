package schema_test

import (
	"context"
	"testing"

	"primeur/core/schema"
	"primeur/core/store"
	"primeur/core/store/storetest"
)

// TestMailKeysMigration: migration 30 gives the invoices and credit notes
// not emailed yet the keys of the addresses they go to, read from their
// parties as issued — lower case, trimmed, empty for an address missing —;
// those emailed keep none.
func TestMailKeysMigration(t *testing.T) {
	storetest.EachEmpty(t, func(t *testing.T, db *store.DB) {
		ctx := context.Background()
		if _, err := schema.MigrateTo(ctx, db, 29); err != nil {
			t.Fatal(err)
		}
		seller := `{"name":"Ferme","address":[],"email":" Ferme@Aravis.FR "}`
		buyer := `{"name":"Épicerie","address":[],"email":"epicerie@lac.fr","emailAccounting":"Compta@Lac.fr"}`
		noAccounting := `{"name":"Épicerie","address":[],"email":"Epicerie@Lac.fr"}`
		document := `, month, year, seq, number, issued_at, issue_date, due_date, seller, buyer, notes, vat_rate, vat_exempt,
			total_ht, total_vat, total_ttc, terms, sent_at) VALUES `
		for _, q := range []struct {
			query string
			args  []any
		}{
			{`INSERT INTO users (id, type, email, email_key, name, password_hash, created_at, updated_at)
				VALUES ('shop', 'distributor', 's@x.fr', 's@x.fr', 'S', '-', 0, 0), ('farm', 'producer', 'f@x.fr', 'f@x.fr', 'F', '-', 0, 0)`, nil},
			{`INSERT INTO orders (id, producer_id, distributor_id, month, created_at, updated_at) VALUES
				('o1', 'farm', 'shop', '2026-10-01', 0, 0), ('o2', 'farm', 'shop', '2026-11-01', 0, 0)`, nil},
			{`INSERT INTO deliveries (id, order_id, producer_id, status, date, chrono, created_at, updated_at)
				VALUES ('d1', 'o1', 'farm', 'done', '2026-10-05', 1, 0, 0)`, nil},
			{`INSERT INTO invoices (id, order_id, producer_id, distributor_id` + document + `
				('unsent', 'o1', 'farm', 'shop', '2026-10-01', 2026, 1, 'FA-2026-000001', 0, '2026-11-01', '2026-11-30', ?, ?, '[]', 550, FALSE, 0, 0, 0, '[]', NULL),
				('sent', 'o2', 'farm', 'shop', '2026-11-01', 2026, 2, 'FA-2026-000002', 0, '2026-12-01', '2026-12-30', ?, ?, '[]', 550, FALSE, 0, 0, 0, '[]', 1)`,
				[]any{seller, buyer, seller, buyer}},
			{`INSERT INTO credit_notes (id, kind, invoice_id, delivery_id, order_id, producer_id, distributor_id` + document + `
				('credit', 'credit', 'unsent', 'd1', 'o1', 'farm', 'shop', '2026-10-01', 2026, 1, 'AV-2026-000001', 0, '2026-11-02', '2026-11-30', ?, ?, '[]', 550, FALSE, 0, 0, 0, '[]', NULL)`,
				[]any{seller, noAccounting}},
		} {
			if _, err := store.Exec(ctx, db, q.query, q.args...); err != nil {
				t.Fatal(err)
			}
		}
		// To the version before migration 40 moved the documents.
		if _, err := schema.MigrateTo(ctx, db, 39); err != nil {
			t.Fatal(err)
		}
		type keys struct {
			ID         string `db:"id"`
			Seller     string `db:"mail_seller_key"`
			Buyer      string `db:"mail_buyer_key"`
			Accounting string `db:"mail_accounting_key"`
		}
		for _, tt := range []struct {
			table string
			want  []keys
		}{
			{"invoices", []keys{{"sent", "", "", ""}, {"unsent", "ferme@aravis.fr", "epicerie@lac.fr", "compta@lac.fr"}}},
			{"credit_notes", []keys{{"credit", "ferme@aravis.fr", "epicerie@lac.fr", ""}}},
		} {
			var got []keys
			if err := store.Select(ctx, db, &got, `SELECT id, mail_seller_key, mail_buyer_key, mail_accounting_key FROM `+tt.table+` ORDER BY id`); err != nil {
				t.Fatal(err)
			}
			if len(got) != len(tt.want) {
				t.Fatalf("%s: %+v, want %+v", tt.table, got, tt.want)
			}
			for i := range got {
				if got[i] != tt.want[i] {
					t.Fatalf("%s: %+v, want %+v", tt.table, got[i], tt.want[i])
				}
			}
		}
	})
}
