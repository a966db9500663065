package schema

import (
	"context"
	"database/sql"
	"encoding/json"
	"fmt"
	"regexp"
	"strconv"
	"strings"
	"time"

	"primeur/core/store"
)

// regimesAndDiscounts is migration 32 (issue 32: VAT regimes, the
// escompte):
//
//   - users.vat_regime: a producer's VAT regime, 'normal', 'franchise' (art.
//     293 B CGI) or 'flat' (the agricultural flat-rate refund, art. 298 bis
//     CGI). A producer with a VAT number is 'normal'; one without had its
//     documents say "TVA non applicable, art. 293 B du CGI", but a farmer
//     not liable to VAT is under the flat-rate refund by law unless it
//     chose otherwise: it becomes 'flat', and sets 'franchise' in its
//     profile if it really is a non-farm micro-business.
//   - invoices and credit_notes: vat_regime (as issued: 'franchise' for
//     the documents issued VAT-exempt so far, which said so), discount (the
//     escompte's rate in hundredths of a percent) and discount_until (the
//     last day of its window, "YYYY-MM-DD"; ” for none). The discount of a
//     document issued before is read back from the mention it printed
//     ("Escompte de 2 % pour un paiement dans les 10 jours suivant la date
//     d'émission."), its window ending on its due date at the latest.
//   - credit_notes may now be an escompte's credit note (kind 'discount'):
//     it refers to its invoice and to the payment that earned it
//     (payment_id), not to a delivery, so delivery_id becomes nullable; one
//     per invoice (index credit_notes_discount). SQLite cannot change a
//     column's constraints in place: credit_notes and credit_note_lines are
//     rebuilt in this transaction (the lines first out and last in, so that
//     no foreign key is ever left dangling), as they stood at version 31.
func regimesAndDiscounts(ctx context.Context, tx *sql.Tx, d store.Dialect) error {
	fail := func(err error) error { return fmt.Errorf("schema: migration 32: %w", err) }
	var steps []string
	if d == store.Postgres {
		steps = []string{
			`ALTER TABLE credit_notes ALTER COLUMN delivery_id DROP NOT NULL`,
			`ALTER TABLE credit_notes DROP CONSTRAINT credit_notes_kind_check`,
			`ALTER TABLE credit_notes ADD CONSTRAINT credit_notes_kind_check CHECK (kind IN ('credit', 'complement', 'discount'))`,
		}
	} else {
		steps = sqliteCreditNotes32
	}
	steps = append(steps,
		`ALTER TABLE credit_notes ADD COLUMN payment_id TEXT REFERENCES payments (id)`,
		`CREATE UNIQUE INDEX credit_notes_discount ON credit_notes (invoice_id) WHERE kind = 'discount'`,
		`ALTER TABLE users ADD COLUMN vat_regime TEXT NOT NULL DEFAULT 'normal'`,
		`UPDATE users SET vat_regime = 'flat' WHERE type = 'producer' AND TRIM(tvaintracom) = ''`,
	)
	for _, table := range []string{"invoices", "credit_notes"} {
		steps = append(steps,
			`ALTER TABLE `+table+` ADD COLUMN vat_regime TEXT NOT NULL DEFAULT 'normal'`,
			`ALTER TABLE `+table+` ADD COLUMN discount BIGINT NOT NULL DEFAULT 0`,
			`ALTER TABLE `+table+` ADD COLUMN discount_until TEXT NOT NULL DEFAULT ''`,
			`UPDATE `+table+` SET vat_regime = 'franchise' WHERE vat_exempt`,
		)
	}
	for _, q := range steps {
		if _, err := tx.ExecContext(ctx, q); err != nil {
			return fail(fmt.Errorf("%s: %w", strings.Fields(q)[0], err))
		}
	}
	for _, table := range []string{"invoices", "credit_notes"} {
		if err := discountsIssued(ctx, tx, d, table); err != nil {
			return fail(err)
		}
	}
	return nil
}

// sqliteCreditNotes32 rebuilds credit_notes and its lines on SQLite with
// delivery_id nullable and the kind 'discount' allowed: the columns, keys
// and indexes of version 31 (migrations 14, 20 and 30).
var sqliteCreditNotes32 = []string{
	`CREATE TABLE credit_notes_32 (
    id              TEXT PRIMARY KEY,
    kind            TEXT NOT NULL CHECK (kind IN ('credit', 'complement', 'discount')),
    invoice_id      TEXT NOT NULL REFERENCES invoices (id),
    delivery_id     TEXT REFERENCES deliveries (id),
    order_id        TEXT NOT NULL REFERENCES orders (id),
    producer_id     TEXT NOT NULL REFERENCES users (id),
    distributor_id  TEXT NOT NULL REFERENCES users (id),
    month           TEXT NOT NULL,
    year            INTEGER NOT NULL,
    seq             BIGINT NOT NULL,
    number          TEXT NOT NULL,
    issued_at       BIGINT NOT NULL,
    issue_date      TEXT NOT NULL,
    due_date        TEXT NOT NULL,
    seller          TEXT NOT NULL,
    buyer           TEXT NOT NULL,
    notes           TEXT NOT NULL,
    vat_rate        BIGINT NOT NULL CHECK (vat_rate >= 0),
    vat_exempt      BOOLEAN NOT NULL,
    total_ht        BIGINT NOT NULL,
    total_vat       BIGINT NOT NULL,
    total_ttc       BIGINT NOT NULL,
    terms           TEXT NOT NULL,
    mail_claim      TEXT,
    mail_claimed_at BIGINT,
    sent_at         BIGINT,
    mail_attempts   INTEGER NOT NULL DEFAULT 0,
    mail_seller_key     TEXT NOT NULL DEFAULT '',
    mail_buyer_key      TEXT NOT NULL DEFAULT '',
    mail_accounting_key TEXT NOT NULL DEFAULT '',
    UNIQUE (delivery_id, kind),
    UNIQUE (producer_id, number)
)`,
	`INSERT INTO credit_notes_32 SELECT ` + creditNoteColumns31 + ` FROM credit_notes`,
	`CREATE TABLE credit_note_lines_32 (
    credit_note_id TEXT NOT NULL REFERENCES credit_notes_32 (id),
    position       INTEGER NOT NULL,
    chrono         BIGINT NOT NULL,
    date           TEXT NOT NULL,
    product_id     TEXT NOT NULL,
    product        TEXT NOT NULL,
    unit           TEXT NOT NULL,
    quantity       BIGINT NOT NULL,
    price          BIGINT NOT NULL,
    amount         BIGINT NOT NULL,
    PRIMARY KEY (credit_note_id, position)
)`,
	`INSERT INTO credit_note_lines_32 SELECT credit_note_id, position, chrono, date, product_id, product, unit, quantity, price, amount
		FROM credit_note_lines`,
	`DROP TABLE credit_note_lines`,
	`DROP TABLE credit_notes`,
	// Renaming the table also renames the reference of its lines to it.
	`ALTER TABLE credit_notes_32 RENAME TO credit_notes`,
	`ALTER TABLE credit_note_lines_32 RENAME TO credit_note_lines`,
	`CREATE INDEX credit_notes_invoice ON credit_notes (invoice_id)`,
	`CREATE INDEX credit_notes_order ON credit_notes (order_id)`,
	`CREATE INDEX credit_notes_month ON credit_notes (month)`,
	`CREATE INDEX credit_notes_unsent ON credit_notes (sent_at)`,
	`CREATE INDEX credit_notes_due ON credit_notes (due_date)`,
}

// creditNoteColumns31 are credit_notes' columns at version 31, in order.
const creditNoteColumns31 = `id, kind, invoice_id, delivery_id, order_id, producer_id, distributor_id, month, year, seq, number,
	issued_at, issue_date, due_date, seller, buyer, notes, vat_rate, vat_exempt, total_ht, total_vat, total_ttc, terms,
	mail_claim, mail_claimed_at, sent_at, mail_attempts, mail_seller_key, mail_buyer_key, mail_accounting_key`

// discountMention32 is the escompte's mention as documents printed it up
// to version 31.
var discountMention32 = regexp.MustCompile(`^Escompte de ([0-9]+)(?:,([0-9]{1,2}))? % pour un paiement dans les ([0-9]+) jours suivant la date d'émission\.$`)

// discountsIssued fills, for migration 32, the discount and discount_until
// of the documents of table that printed an escompte: the rate and the
// window read from the mention (subject AAB), the window ending on the due
// date at the latest.
func discountsIssued(ctx context.Context, tx *sql.Tx, d store.Dialect, table string) error {
	cond := ""
	if table == "credit_notes" {
		cond = " AND kind = 'complement'" // a credit note is not paid: no escompte
	}
	rows, err := tx.QueryContext(ctx, `SELECT id, issue_date, due_date, terms FROM `+table+` WHERE terms LIKE '%Escompte de %'`+cond)
	if err != nil {
		return err
	}
	defer rows.Close()
	type found struct {
		id, until string
		rate      int64
	}
	var all []found
	for rows.Next() {
		var id, issued, due, raw string
		if err := rows.Scan(&id, &issued, &due, &raw); err != nil {
			return err
		}
		var terms []struct {
			Text string `json:"text"`
		}
		if json.Unmarshal([]byte(raw), &terms) != nil {
			continue // terms stored as plain strings by the first invoices: none had a discount
		}
		for _, t := range terms {
			m := discountMention32.FindStringSubmatch(t.Text)
			if m == nil {
				continue
			}
			whole, _ := strconv.ParseInt(m[1], 10, 64)
			frac := int64(0)
			if m[2] != "" {
				frac, _ = strconv.ParseInt((m[2] + "0")[:2], 10, 64)
			}
			days, _ := strconv.Atoi(m[3])
			start, err := time.Parse(time.DateOnly, issued)
			if err != nil {
				continue
			}
			until := start.AddDate(0, 0, days).Format(time.DateOnly)
			if due != "" && due < until {
				until = due
			}
			all = append(all, found{id: id, until: until, rate: whole*100 + frac})
		}
	}
	if err := rows.Close(); err != nil {
		return err
	}
	update := store.Rebind(d, `UPDATE `+table+` SET discount = ?, discount_until = ? WHERE id = ?`)
	for _, f := range all {
		if _, err := tx.ExecContext(ctx, update, f.rate, f.until, f.id); err != nil {
			return err
		}
	}
	return rows.Err()
}
